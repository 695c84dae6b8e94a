import {AgentRequestError} from '../api/agent-requests.js';
import {readSpendAnswer, spendArguments, type SpendSubject} from '../api/agent-spend-wire.js';
import type {AgentTransport} from '../history/agent-reader.js';
import type {AccountSpend, ResourceSpend} from '../model/spend.js';
import type {SpendReads} from './billed-spend.js';

/** How long a read of the bills through the agent may take (the agent's own read may wait on the service's budget). */
const agentSpendMs = 20_000;

/**
The spend reads of a process attached to an agent that reads bills (feature `bills`): each one asked of the agent, which
reads its history file first and the service for the rest, once for all its clients; this process then sends the
service no billing request of its own. Not attached (or to an agent that reads none), the reads are `local`.
*/
export function spendThroughAgent(local: SpendReads, agent: () => AgentTransport | undefined): SpendReads {
	const ask = async (transport: AgentTransport, subject: SpendSubject, args: unknown[]): Promise<AccountSpend | ResourceSpend | undefined> =>
		readSpendAnswer(
			subject,
			await transport.request('spend', args, agentSpendMs),
			() => new AgentRequestError(`the agent on ${transport.socketPath} answered spend with something podtop does not understand (upgrade both?)`),
		);

	return {
		async spend(query, priority) {
			const transport = agent();
			return transport
				? (ask(transport, 'account', [...spendArguments('account', query), priority]) as Promise<AccountSpend | undefined>)
				: local.spend(query, priority);
		},
		async resourceSpend(kind, query, priority) {
			const transport = agent();
			return transport
				? (ask(transport, kind, [...spendArguments(kind, query), priority]) as Promise<ResourceSpend | undefined>)
				: local.resourceSpend(kind, query, priority);
		},
	};
}

import type {HistoryMethod} from '../api/agent-protocol.js';
import {AgentRequestError} from '../api/agent-requests.js';
import {isAccountSnapshot} from '../store/account-snapshot.js';
import type {HistoryEvent, RecordedBills, HistoryInfo, HistoryReader, KnownThing, PastAccount, Series} from './history-types.js';

/** How a process reaches an agent's history: requests over its socket (the feed's connection, or one of its own). */
export type AgentTransport = {
	/** The agent's socket, for messages and `info().source`. */
	readonly socketPath: string;
	readonly request: (method: HistoryMethod, args: readonly unknown[], timeoutMs: number) => Promise<unknown>;
	/** Lets go of a connection of its own (the feed's stays). */
	readonly close?: () => void;
};

type Options = {
	readonly transport: AgentTransport;
	/** How long one read may take, end to end. */
	readonly timeoutMs?: number;
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An answer not of the shape asked for: the agent is not one this podtop understands. */
const malformed = (transport: AgentTransport, method: HistoryMethod) =>
	new AgentRequestError(`the agent on ${transport.socketPath} answered history ${method} with something podtop does not understand (upgrade both?)`);

/** A list whose items all pass `check`, or the error. */
function listOf<T>(value: unknown, check: (item: Record<string, unknown>) => boolean, error: () => Error): T[] {
	if (!Array.isArray(value) || !value.every(item => isRecord(item) && check(item))) {
		throw error();
	}

	return value as T[];
}

/** JSON has no undefined: fields the reader leaves undefined come back missing or null. */
const optional = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

const isSeries = (item: Record<string, unknown>) =>
	typeof item.key === 'string' && typeof item.kind === 'string' && Array.isArray(item.fields) && Array.isArray(item.points) && typeof item.tier === 'string';
const isEvent = (item: Record<string, unknown>) => typeof item.at === 'number' && typeof item.type === 'string' && isRecord(item.data);
const isThing = (item: Record<string, unknown>) => typeof item.key === 'string' && typeof item.kind === 'string' && typeof item.firstAt === 'number';

/**
The `HistoryReader` of an agent on this host: each call one request over its socket, answered by
the agent's own reader of its file. For a client that cannot read the file (a `--group` member,
another user). Answers are checked for shape; what the agent refuses or cannot answer in time
rejects with a sentence that says so.
*/
export function createAgentHistoryReader({transport, timeoutMs = 20_000}: Options): HistoryReader {
	const ask = async (method: HistoryMethod, args: readonly unknown[]) => transport.request(method, args, timeoutMs);
	const bad = (method: HistoryMethod) => () => malformed(transport, method);
	return {
		kind: 'agent',
		async series(query) {
			const series = listOf<Series>(await ask('series', [query]), isSeries, bad('series'));
			return series.map(each => ({...each, deletedAt: optional(each.deletedAt)}));
		},
		async stateAt(at) {
			const account = await ask('stateAt', [at]);
			if (account === null || account === undefined) {
				return undefined;
			}

			if (!isRecord(account) || typeof account.at !== 'number' || !Array.isArray(account.alerts) || !isAccountSnapshot(account)) {
				throw malformed(transport, 'stateAt');
			}

			return account as PastAccount;
		},
		async events(from, to, limit) {
			const events = listOf<HistoryEvent>(await ask('events', limit === undefined ? [from, to] : [from, to, limit]), isEvent, bad('events'));
			return events.map(event => ({...event, kind: optional(event.kind), subject: optional(event.subject), name: optional(event.name)}));
		},
		async things(kind) {
			const things = listOf<KnownThing>(await ask('things', kind === undefined ? [] : [kind]), isThing, bad('things'));
			return things.map(thing => ({...thing, deletedAt: optional(thing.deletedAt)}));
		},
		async bills(from, to) {
			const bills = await ask('bills', [from, to]);
			if (bills === null || bills === undefined) {
				return undefined;
			}

			const isResource = (item: unknown) => isRecord(item) && typeof item.kind === 'string' && typeof item.id === 'string' && typeof item.total === 'number';
			if (
				!isRecord(bills) ||
				!isRecord(bills.account) ||
				typeof bills.account.total !== 'number' ||
				typeof bills.from !== 'number' ||
				typeof bills.to !== 'number' ||
				!Array.isArray(bills.resources) ||
				!bills.resources.every(item => isResource(item)) ||
				!Array.isArray(bills.kinds)
			) {
				throw malformed(transport, 'bills');
			}

			return bills as RecordedBills;
		},
		async span() {
			const span = await ask('span', []);
			if (span === null || span === undefined) {
				return undefined;
			}

			if (!isRecord(span) || typeof span.from !== 'number' || typeof span.to !== 'number') {
				throw malformed(transport, 'span');
			}

			return {from: span.from, to: span.to};
		},
		async info(options) {
			const info = await ask('info', options ? [options] : []);
			if (!isRecord(info) || !Array.isArray(info.tiers)) {
				throw malformed(transport, 'info');
			}

			const remote = info as HistoryInfo;
			return {
				...remote,
				kind: 'agent',
				source: `the agent on ${transport.socketPath} (${typeof remote.source === 'string' ? remote.source : 'its file'})`,
				bytes: optional(remote.bytes),
				series: optional(remote.series),
				events: optional(remote.events),
				integrity: optional(remote.integrity),
				tiers: remote.tiers.map(tier => ({...tier, from: optional(tier.from), to: optional(tier.to)})),
			};
		},
		async close() {
			transport.close?.();
		},
	};
}

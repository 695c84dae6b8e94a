import {historyAnswerMs, maxAnswerBytes, protocolLine} from '../api/agent-protocol.js';
import {readSpendArguments, spendAnswer, spendProblemAnswer, type SpendAnswer} from '../api/agent-spend-wire.js';
import type {SpendReads} from '../engine/billed-spend.js';
import type {Priority} from '../poll/scheduler.js';

export type AgentSpend = {
	/** The line answering `spend` request `id`: the bills as the agent reads them, or an error in a sentence. Never throws. */
	readonly answer: (id: number, args: readonly unknown[]) => Promise<string>;
};

const priorities = new Set<Priority>(['action', 'visible', 'background']);

/**
The account's bills for the agent's clients, read through the agent's own (its history file first, the service only for
the buckets missing or open): a dashboard attached to it asks the service for no bills. The same read asked by several
clients at once is made once (each bucket is asked for once per billing run either way; at once, before the first
answer was kept, it would be asked for twice).
*/
export function createAgentSpend(reads: SpendReads, timeoutMs = historyAnswerMs): AgentSpend {
	const inFlight = new Map<string, Promise<SpendAnswer>>();
	const read = async (args: readonly unknown[]): Promise<SpendAnswer> => {
		const checked = readSpendArguments(args);
		if (typeof checked === 'string') {
			throw new TypeError(checked);
		}

		const priority = priorities.has(args[2] as Priority) ? (args[2] as Priority) : 'background';
		const key = JSON.stringify([checked.subject, checked.query]);
		const running = inFlight.get(key);
		if (running) {
			return running;
		}

		const {subject, query} = checked;
		const reading = (async () => {
			try {
				return spendAnswer(subject === 'account' ? await reads.spend(query, priority) : await reads.resourceSpend(subject, query, priority));
			} catch (error) {
				return spendProblemAnswer(error);
			}
		})().finally(() => {
			inFlight.delete(key);
		});
		inFlight.set(key, reading);
		return reading;
	};

	return {
		async answer(id, args) {
			let timer: NodeJS.Timeout | undefined;
			try {
				const result = await Promise.race([
					read(args),
					new Promise<never>((_resolve, reject) => {
						timer = setTimeout(() => {
							reject(new Error(`spend took longer than ${Math.round(timeoutMs / 1000)} s`));
						}, timeoutMs);
					}),
				]);
				const text = protocolLine({type: 'history', id, result});
				return text.length > maxAnswerBytes
					? protocolLine({type: 'history', id, error: `the bills would be ${Math.round(text.length / 1024 / 1024)} MB: ask a shorter window or larger buckets`})
					: text;
			} catch (error) {
				const message = error instanceof Error ? error.message : String(error);
				return protocolLine({type: 'history', id, error: error instanceof TypeError ? `bad arguments to spend: ${message}` : message});
			} finally {
				clearTimeout(timer);
			}
		},
	};
}

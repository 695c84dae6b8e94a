import {maxRequestsInFlight, protocolLine, type HistoryAnswer, type HistoryMethod} from './agent-protocol.js';

/** A history request the agent could not answer, or that found no agent: its message says which, in a sentence. */
export class AgentRequestError extends Error {
	override name = 'AgentRequestError';
}

export type AgentRequests = {
	/** Sends one request and settles with the agent's answer, or rejects with an `AgentRequestError` (refused, timed out, agent gone). */
	readonly request: (method: HistoryMethod, args: readonly unknown[], timeoutMs: number) => Promise<unknown>;
	/** Takes a `history` answer off the wire; false when it answers nothing asked (ignored). */
	readonly answer: (message: HistoryAnswer) => boolean;
	/** Rejects every request still waiting (the connection closed). */
	readonly failAll: (reason: string) => void;
};

type Pending = {
	readonly resolve: (value: unknown) => void;
	readonly reject: (error: Error) => void;
	readonly timer: NodeJS.Timeout;
};

/**
The client's half of history requests: numbers each, writes it with `send` (false: not sent, no
agent), and matches the answers that come back between events. Never more in flight than the
agent allows: the rest wait their turn here, so a busy chart never gets its client dropped.
*/
export function createAgentRequests(send: (line: string) => boolean, describe: () => string): AgentRequests {
	const pending = new Map<number, Pending>();
	const queue: Array<{readonly go: () => void; readonly reject: (error: Error) => void}> = [];
	let nextId = 1;

	const next = () => {
		while (pending.size < maxRequestsInFlight && queue.length > 0) {
			queue.shift()!.go();
		}
	};

	const settle = (id: number) => {
		const entry = pending.get(id);
		if (entry) {
			clearTimeout(entry.timer);
			pending.delete(id);
			next();
		}

		return entry;
	};

	return {
		async request(method, args, timeoutMs) {
			return new Promise((resolve, reject) => {
				const started = Date.now();
				const go = () => {
					const left = timeoutMs - (Date.now() - started);
					if (left <= 0) {
						reject(new AgentRequestError(`${describe()} did not answer within ${Math.round(timeoutMs / 1000)} s (history ${method})`));
						return;
					}

					const id = nextId++;
					const timer = setTimeout(() => {
						settle(id)?.reject(new AgentRequestError(`${describe()} did not answer within ${Math.round(timeoutMs / 1000)} s (history ${method})`));
					}, left);
					pending.set(id, {resolve, reject, timer});
					if (!send(protocolLine({type: 'history', id, method, args}))) {
						settle(id)?.reject(new AgentRequestError(`${describe()} is not there: no history to read from it`));
					}
				};

				if (pending.size < maxRequestsInFlight) {
					go();
				} else {
					queue.push({go, reject});
				}
			});
		},
		answer(message) {
			const entry = settle(message.id);
			if (!entry) {
				return false;
			}

			if ('error' in message) {
				entry.reject(new AgentRequestError(`${describe()}: ${message.error}`));
			} else {
				entry.resolve(message.result);
			}

			return true;
		},
		failAll(reason) {
			const waiting = queue.splice(0);
			for (const [id, entry] of pending) {
				clearTimeout(entry.timer);
				pending.delete(id);
				entry.reject(new AgentRequestError(`${describe()} ${reason}`));
			}

			for (const entry of waiting) {
				entry.reject(new AgentRequestError(`${describe()} ${reason}`));
			}
		},
	};
}

import {createConnection, type Socket} from 'node:net';
import {createClientHandshake} from '../api/agent-handshake.js';
import {
	agentSilenceMs,
	agentTickMs,
	createLineSplitter,
	featuresOf,
	isHistoryAnswer,
	maxAgentLineLength,
	protocolLine,
	readAgentLine,
	type AgentLine,
	type HistoryAnswer,
	type AgentPeer,
	type ClientLine,
} from '../api/agent-protocol.js';
import {agentIsSameUser, findAgentSocket} from '../api/agent-socket-trust.js';
import {createAgentRequests, type AgentRequests} from '../api/agent-requests.js';
import {balanceOf, isAccountSnapshot, type AccountSnapshot} from '../store/account-snapshot.js';
import type {PodtopStore, StoreWrites} from '../store/create-store.js';
import {adoptFedWorkers, applyAgentEvents} from './apply-agent-events.js';

/** A timer this late means this process's loop was held up, not that the agent went quiet. */
const loopStallMs = 250;

export type AgentFeed = {
	readonly start: () => void;
	readonly stop: () => void;
	/** A history request over the feed's connection (rejects while not attached). */
	readonly request: AgentRequests['request'];
	/** Sends one line to the agent (a `record` line) while attached; false when not attached. */
	readonly send: (message: ClientLine) => boolean;
};

type Options = {
	/** Where to look for the agent, in order: the first socket that is there is tried. */
	readonly socketPaths: readonly string[];
	/** `agentSecret(key)` for the handshake: never sent. */
	readonly secret: string;
	readonly store: PodtopStore;
	readonly writes: StoreWrites;
	/** Attached (the agent feeds the account; `peer` says what it offers) or not (poll it yourself), each time it changes and after the first try. */
	readonly onAttached: (attached: boolean, peer?: AgentPeer) => void;
	/** While detached, how often to look for the agent again. */
	readonly retryMs?: number;
	/** How long the agent may take to answer a hello with its snapshot. */
	readonly answerMs?: number;
	/** Why a socket found is not trusted, or an agent was left (one line, said once until the feed attaches). */
	readonly onWarning?: (line: string) => void;
};

/**
The account fed by an agent on this host (`podtop agent`) instead of polled: connect to its
socket, prove the account, adopt its snapshot, apply its events. When the agent goes (the socket
closes, or a tick is overdue), `onAttached(false)` at once so the pollers take over, and the feed
looks for the agent again every `retryMs`.
*/
export function createAgentFeed({socketPaths, secret, store, writes, onAttached, retryMs = 2000, answerMs = 3000, onWarning}: Options): AgentFeed {
	let socket: Socket | undefined;
	let retry: NodeJS.Timeout | undefined;
	let silence: NodeJS.Timeout | undefined;
	let silenceCheck: NodeJS.Immediate | undefined;
	let attached: boolean | undefined;
	let stopped = true;
	let socketPath = socketPaths[0]!;
	const warned = new Set<string>();
	const warn = (line: string) => {
		if (!warned.has(line)) {
			warned.add(line);
			onWarning?.(line);
		}
	};

	const send = (line: string) => {
		if (!attached || !socket || socket.destroyed) {
			return false;
		}

		socket.write(line);
		return true;
	};

	const requests = createAgentRequests(send, () => `the agent on ${socketPath}`);

	const report = (now: boolean, peer?: AgentPeer) => {
		if (attached !== now) {
			attached = now;
			writes.setVia(now ? 'agent' : 'direct');
			onAttached(now, peer);
		}
	};

	const stopSilence = () => {
		clearTimeout(silence);
		clearImmediate(silenceCheck);
	};

	const watchSilence = (ms: number) => {
		stopSilence();
		const due = Date.now() + ms;
		const check = (dueAt: number) => {
			// Fired late: this process's own loop was held up (a large snapshot parsed, a frame drawn), and what the agent sent meanwhile
			// may wait unread behind this timer. Look again once it is read: 20 clients taking one another's stalls for the agent's silence
			// left and attached again some 400 times in 3 minutes at 10,000 pods, each attachment an 8 MB snapshot.
			if (Date.now() - dueAt > loopStallMs) {
				const again = Date.now() + agentTickMs;
				silence = setTimeout(() => {
					check(again);
				}, agentTickMs);
				return;
			}

			// What came while this timer waited its turn is read before the check phase (and stops this check): only then is the agent silent.
			silenceCheck = setImmediate(() => {
				socket?.destroy();
			});
		};

		silence = setTimeout(() => {
			check(due);
		}, ms);
	};

	const connect = () => {
		retry = undefined;
		if (stopped) {
			return;
		}

		// No agent's socket on the host (a stat or two): nothing to connect to, so no socket is made only to fail; look again later.
		const found = findAgentSocket(socketPaths, why => {
			warn(`${why}; polling on its own`);
		});
		if (found === undefined) {
			report(false);
			retry = setTimeout(connect, retryMs);
			return;
		}

		const handshake = createClientHandshake(secret);
		const split = createLineSplitter(handshake.maxLineLength);
		let adopted = false;
		socketPath = found;
		const current = createConnection(socketPath);
		socket = current;
		const leave = (why: string) => {
			warn(`the agent on ${socketPath} ${why}; polling on its own`);
			current.destroy();
		};

		current.setEncoding('utf8');
		watchSilence(answerMs);
		current.on('connect', () => {
			current.write(handshake.hello);
		});
		current.on('data', (chunk: string) => {
			watchSilence(adopted ? agentSilenceMs : answerMs);
			const events: Array<Exclude<AgentLine, HistoryAnswer>> = [];
			for (const line of split(chunk)) {
				if (!adopted) {
					const step = handshake.take(line);
					if ('failure' in step) {
						leave(step.failure);
						return;
					}

					if ('answer' in step) {
						current.write(step.answer);
						continue;
					}

					if (step.greeting.type !== 'snapshot' || !isAccountSnapshot(step.greeting.account)) {
						leave('sent no picture of the account');
						return;
					}

					adopted = true;
					warned.clear();
					writes.adoptAccount(step.greeting.account);
					adoptFedWorkers(step.greeting.account.workers, store, writes);
					const balance = balanceOf(step.greeting.account.balance);
					if (balance) {
						writes.setBalance(balance);
					}

					report(true, {socketPath, features: featuresOf(step.greeting), sameUser: agentIsSameUser(socketPath)});
					continue;
				}

				const read = line === undefined ? {invalid: `sent a line over ${maxAgentLineLength / 1024 / 1024} MB`} : readAgentLine(line);
				if ('invalid' in read) {
					leave(read.invalid);
					return;
				}

				if (isHistoryAnswer(read.message)) {
					requests.answer(read.message);
				} else {
					events.push(read.message);
				}
			}

			if (events.length > 0) {
				applyAgentEvents(events, store, writes);
			}
		});
		current.on('error', () => {
			// `close` follows: detach there.
		});
		current.on('close', () => {
			stopSilence();
			if (socket === current) {
				socket = undefined;
				requests.failAll('went away before it answered');
			}

			// Stopped: the engine is closing, and nothing must start polling again.
			if (!stopped) {
				report(false);
				retry = setTimeout(connect, retryMs);
			}
		});
	};

	return {
		start() {
			if (stopped) {
				stopped = false;
				connect();
			}
		},
		stop() {
			stopped = true;
			clearTimeout(retry);
			stopSilence();
			socket?.destroy();
			socket = undefined;
			requests.failAll('is no longer attached (podtop is closing)');
		},
		request: requests.request,
		send: message => send(protocolLine(message)),
	};
}

/** One look at the agent's picture of the account (`podtop snapshot`), or undefined when no trusted agent answers in time. */
export async function readAgentSnapshot(socketPaths: readonly string[], secret: string, answerMs = 3000): Promise<AccountSnapshot | undefined> {
	const socketPath = findAgentSocket(socketPaths);
	if (socketPath === undefined) {
		return undefined;
	}

	return new Promise(resolve => {
		const handshake = createClientHandshake(secret);
		const split = createLineSplitter(handshake.maxLineLength);
		const socket = createConnection(socketPath);
		const finish = (snapshot: AccountSnapshot | undefined) => {
			clearTimeout(timer);
			socket.destroy();
			resolve(snapshot);
		};

		const timer = setTimeout(() => {
			finish(undefined);
		}, answerMs);
		socket.setEncoding('utf8');
		socket.on('connect', () => {
			socket.write(handshake.hello);
		});
		socket.on('data', (chunk: string) => {
			for (const line of split(chunk)) {
				const step = handshake.take(line);
				if ('answer' in step) {
					socket.write(step.answer);
					continue;
				}

				const account = 'greeting' in step && step.greeting.type === 'snapshot' ? step.greeting.account : undefined;
				finish(isAccountSnapshot(account) ? account : undefined);
				return;
			}
		});
		socket.on('error', () => {
			finish(undefined);
		});
		socket.on('close', () => {
			finish(undefined);
		});
	});
}

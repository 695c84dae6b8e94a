import {createConnection, type Socket} from 'node:net';
import {agentIsSameUser, agentProtocolVersion, agentSilenceMs, createLineSplitter, featuresOf, findAgentSocket, type AgentPeer} from '../api/agent-protocol.js';
import {createAgentRequests, type AgentRequests} from '../api/agent-requests.js';
import {isAccountSnapshot, type AccountSnapshot} from '../store/account-snapshot.js';
import type {PodtopStore, StoreWrites} from '../store/create-store.js';
import {applyAgentEvents} from './apply-agent-events.js';

export type AgentFeed = {
	readonly start: () => void;
	readonly stop: () => void;
	/** A history request over the feed's connection (rejects while not attached). */
	readonly request: AgentRequests['request'];
	/** Sends one line to the agent (a `record` line) while attached; false when not attached. */
	readonly send: (message: unknown) => boolean;
};

type Options = {
	/** Where to look for the agent, in order: the first socket that is there is tried. */
	readonly socketPaths: readonly string[];
	/** The account proof (`accountProof(key)`), never the key. */
	readonly proof: string;
	readonly store: PodtopStore;
	readonly writes: StoreWrites;
	/** Attached (the agent feeds the account; `peer` says what it offers) or not (poll it yourself), each time it changes and after the first try. */
	readonly onAttached: (attached: boolean, peer?: AgentPeer) => void;
	/** While detached, how often to look for the agent again. */
	readonly retryMs?: number;
	/** How long the agent may take to answer a hello with its snapshot. */
	readonly answerMs?: number;
};

/** The agent's socket, or the first place when none is there (connecting fails, and the caller polls by itself). */
const findSocket = (paths: readonly string[]): string => findAgentSocket(paths) ?? paths[0]!;

const parseLine = (line: string): unknown => {
	try {
		return JSON.parse(line);
	} catch {
		return undefined;
	}
};

/** A snapshot of 10,000 pods is ~10 MB: a line past this is no line of the protocol. */
const maxLineLength = 256 * 1024 * 1024;

/**
The account fed by an agent on this host (`podtop agent`) instead of polled: connect to its
socket, prove the account, adopt its snapshot, apply its events. When the agent goes (the socket
closes, or a tick is overdue), `onAttached(false)` at once so the pollers take over, and the feed
looks for the agent again every `retryMs`.
*/
export function createAgentFeed({socketPaths, proof, store, writes, onAttached, retryMs = 2000, answerMs = 3000}: Options): AgentFeed {
	let socket: Socket | undefined;
	let retry: NodeJS.Timeout | undefined;
	let silence: NodeJS.Timeout | undefined;
	let attached: boolean | undefined;
	let stopped = true;
	let socketPath = findSocket(socketPaths);

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

	const watchSilence = (ms: number) => {
		clearTimeout(silence);
		silence = setTimeout(() => {
			socket?.destroy();
		}, ms);
	};

	const connect = () => {
		retry = undefined;
		if (stopped) {
			return;
		}

		// No agent's socket on the host (a stat or two): nothing to connect to, so no socket is made only to fail; look again later.
		const found = findAgentSocket(socketPaths);
		if (found === undefined) {
			report(false);
			retry = setTimeout(connect, retryMs);
			return;
		}

		const split = createLineSplitter(maxLineLength);
		let adopted = false;
		socketPath = found;
		const current = createConnection(socketPath);
		socket = current;
		current.setEncoding('utf8');
		current.on('connect', () => {
			current.write(`${JSON.stringify({type: 'hello', protocol: agentProtocolVersion, account: proof})}\n`);
			watchSilence(answerMs);
		});
		current.on('data', (chunk: string) => {
			watchSilence(agentSilenceMs);
			const events: Array<Record<string, unknown> & {readonly type: string}> = [];
			for (const line of split(chunk)) {
				const message = line === undefined ? undefined : parseLine(line);
				if (typeof message !== 'object' || message === null || typeof (message as {type?: unknown}).type !== 'string') {
					current.destroy();
					return;
				}

				const event = message as Record<string, unknown> & {readonly type: string};
				if (adopted && event.type === 'history') {
					requests.answer(event);
				} else if (adopted) {
					events.push(event);
				} else {
					if (event.type !== 'snapshot' || !isAccountSnapshot(event.account)) {
						// Refused (another account, another protocol) or not an agent: poll, and look again later.
						current.destroy();
						return;
					}

					adopted = true;
					writes.adoptAccount(event.account);
					report(true, {socketPath, features: featuresOf(event), sameUser: agentIsSameUser(socketPath)});
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
			clearTimeout(silence);
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
			clearTimeout(silence);
			socket?.destroy();
			socket = undefined;
			requests.failAll('is no longer attached (podtop is closing)');
		},
		request: requests.request,
		send: message => send(`${JSON.stringify(message)}\n`),
	};
}

/** One look at the agent's picture of the account (`podtop snapshot`), or undefined when no agent answers in time. */
export async function readAgentSnapshot(socketPaths: readonly string[], proof: string, answerMs = 3000): Promise<AccountSnapshot | undefined> {
	return new Promise(resolve => {
		const split = createLineSplitter(maxLineLength);
		const socket = createConnection(findSocket(socketPaths));
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
			socket.write(`${JSON.stringify({type: 'hello', protocol: agentProtocolVersion, account: proof})}\n`);
		});
		socket.on('data', (chunk: string) => {
			const lines = split(chunk);
			if (lines.length === 0) {
				return;
			}

			const message = lines[0] === undefined ? undefined : parseLine(lines[0]);
			const account = (message as {type?: unknown; account?: unknown} | undefined)?.type === 'snapshot' ? (message as {account: unknown}).account : undefined;
			finish(isAccountSnapshot(account) ? account : undefined);
		});
		socket.on('error', () => {
			finish(undefined);
		});
		socket.on('close', () => {
			finish(undefined);
		});
	});
}

import {statSync} from 'node:fs';
import {createConnection, type Socket} from 'node:net';
import {dirname} from 'node:path';
import {agentProtocolVersion, agentSilenceMs, createLineSplitter} from '../api/agent-protocol.js';
import {isAccountSnapshot, type AccountSnapshot} from '../store/account-snapshot.js';
import type {PodtopStore, StoreWrites} from '../store/create-store.js';
import {applyAgentEvents} from './apply-agent-events.js';

export type AgentFeed = {
	readonly start: () => void;
	readonly stop: () => void;
};

type Options = {
	/** Where to look for the agent, in order: the first socket that is there is tried. */
	readonly socketPaths: readonly string[];
	/** The account proof (`accountProof(key)`), never the key. */
	readonly proof: string;
	readonly store: PodtopStore;
	readonly writes: StoreWrites;
	/** Attached (the agent feeds the account) or not (poll it yourself), each time it changes and after the first try. */
	readonly onAttached: (attached: boolean) => void;
	/** While detached, how often to look for the agent again. */
	readonly retryMs?: number;
	/** How long the agent may take to answer a hello with its snapshot. */
	readonly answerMs?: number;
};

/**
The first of the places that holds a socket in a folder no stranger can write to (a shared group
folder that anyone may write is no place to trust); the first place when none does (it fails,
and the caller polls by itself).
*/
function findSocket(paths: readonly string[]): string {
	return (
		paths.find(path => {
			try {
				// eslint-disable-next-line no-bitwise
				return statSync(path).isSocket() && (statSync(dirname(path)).mode & 0o002) === 0;
			} catch {
				return false;
			}
		}) ?? paths[0]!
	);
}

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

	const report = (now: boolean) => {
		if (attached !== now) {
			attached = now;
			writes.setVia(now ? 'agent' : 'direct');
			onAttached(now);
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

		const split = createLineSplitter(maxLineLength);
		let adopted = false;
		const current = createConnection(findSocket(socketPaths));
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
				if (adopted) {
					events.push(event);
				} else {
					if (event.type !== 'snapshot' || !isAccountSnapshot(event.account)) {
						// Refused (another account, another protocol) or not an agent: poll, and look again later.
						current.destroy();
						return;
					}

					adopted = true;
					writes.adoptAccount(event.account);
					report(true);
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
		},
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

import {unlinkSync} from 'node:fs';
import {createServer, type Socket} from 'node:net';
import {createAgentHandshake} from '../api/agent-handshake.js';
import {agentProtocolVersion, agentTickMs, createLineSplitter, maxHelloBytes, maxRequestBytes, protocolLine} from '../api/agent-protocol.js';
import {accountSnapshot} from '../store/account-snapshot.js';
import {changeEvents} from '../store/change-events.js';
import {workerEvents} from '../store/fed-workers.js';
import type {PodtopStore} from '../store/create-store.js';
import type {PodtopState} from '../store/state.js';
import {defaultCadence, shownPodListMs} from '../poll/cadence.js';
import {createClientLines, createTurns, type AgentHistory, type Client} from './client-lines.js';
import type {LogHub} from './log-hub.js';
import {createPodPacing} from './pod-pacing.js';
import {prepareSocketPath, protectSocket} from './socket-file.js';

export type {AgentHistory} from './client-lines.js';

/** Text is written a megabyte (of characters) at a time, so that a client reading a large snapshot is seen to read (`handedOver` moves a slice at a time). */
const sliceLength = 1024 * 1024;

/** The text in slices of `sliceLength`, none ending between the two halves of a surrogate pair. */
function slices(text: string): string[] {
	if (text.length <= sliceLength) {
		return [text];
	}

	const parts: string[] = [];
	let start = 0;
	while (start < text.length) {
		let end = Math.min(text.length, start + sliceLength);
		// A character past the 16-bit range starts at end - 1: it is two code units, and goes whole into the next slice.
		if (end < text.length && text.codePointAt(end - 1)! > 0xff_ff) {
			end -= 1;
		}

		parts.push(text.slice(start, end));
		start = end;
	}

	return parts;
}

/** A tick this much later than due means the agent's loop was held up. */
const loopStallMs = 1000;

/** What a socket has handed to its reader so far (its count includes what waits in its buffer). */
const handedOver = (socket: Socket) => socket.bytesWritten - socket.writableLength;

export type AgentServer = {
	readonly socketPath: string;
	/** Clients attached now. */
	readonly clientCount: () => number;
	readonly close: () => Promise<void>;
};

type Options = {
	readonly store: PodtopStore;
	readonly socketPath: string;
	/** `agentSecret(key)` of the agent's own key: each side of the handshake proves it holds the same. */
	readonly secret: string;
	/** Open the socket to this group (0660) as well as to its owner (0600). */
	readonly gid?: number;
	/** A client whose output has waited this long to drain is dropped… */
	readonly drainTimeoutMs?: number;
	/** …as is one with this much unsent: the agent never buffers without bound for a stuck reader. */
	readonly maxBufferBytes?: number;
	readonly tickMs?: number;
	/** How long a new connection may take to say hello and prove the account: two round trips since the handshake became mutual, which a host at a load of 20 on two cores still meets in 10 s; a peer that never finishes holds its socket no longer. */
	readonly helloTimeoutMs?: number;
	/** One line per client attached, refused or dropped (stderr in `podtop agent`). */
	readonly log?: (line: string) => void;
	/** The agent's history: clients read ranges of it, and forward what only they know to its timeline. */
	readonly history?: AgentHistory;
	/** What the agent says of itself when a client attaches: its version, the 429s of its last hour (`podtop doctor` shows them). */
	readonly about?: () => Readonly<Record<string, unknown>>;
	/** The agent's shared log streams: clients follow logs through it (one upstream stream per log, however many follow it). */
	readonly logs?: LogHub;
	/** How long a pod whose runtime's figures alone moved waits to be sent (`createPodPacing`): by default as long as a dashboard on its own waits to read the list again. */
	readonly podRuntimeMs?: () => number;
};

/**
Serves a store on a Unix socket: each client that proves the account gets the store's picture of
it, then every change as the events of `podtop watch --jsonl` and a tick a second with the poll
sources' state. Each change is serialised once for all clients.
*/
export async function serveAgent({
	store,
	socketPath,
	secret,
	gid,
	drainTimeoutMs = 10_000,
	maxBufferBytes = 64 * 1024 * 1024,
	tickMs = agentTickMs,
	helloTimeoutMs = 10_000,
	log = () => undefined,
	history,
	about = () => ({}),
	logs,
	podRuntimeMs = () => shownPodListMs(defaultCadence, store.getState().pods.order.length),
}: Options): Promise<AgentServer> {
	await prepareSocketPath(socketPath, gid);
	const clients = new Set<Client>();
	const nextTurn = createTurns();
	let counter = 0;

	const drop = (client: Client, why: string) => {
		if (clients.delete(client)) {
			log(`${client.name} dropped: ${why}`);
		}

		client.socket.destroy();
	};

	const send = (client: Client, text: string) => {
		if (client.socket.destroyed) {
			clients.delete(client);
			return;
		}

		if (client.socket.writableLength + text.length > maxBufferBytes) {
			drop(client, `${Math.round(client.socket.writableLength / 1024)} KB unread`);
			return;
		}

		let written = true;
		for (const slice of slices(text)) {
			written = client.socket.write(slice);
		}

		if (!written && client.pendingSince === undefined) {
			client.pendingSince = Date.now();
			client.handed = handedOver(client.socket);
			client.socket.once('drain', () => {
				client.pendingSince = undefined;
			});
		}
	};

	/**
	The account's snapshot as text, made once for every client that attaches while the store holds the same state: at 10,000
	pods it is 8 MB and 270 ms of the agent's loop, and twenty dashboards started together attach within the same second.
	*/
	let snapshot: {readonly state: PodtopState; readonly text: string} | undefined;
	const accountText = () => {
		const state = store.getState();
		if (snapshot?.state !== state) {
			snapshot = {state, text: JSON.stringify(accountSnapshot(state))};
		}

		return snapshot.text;
	};

	const greet = (socket: Socket) => {
		counter += 1;
		const name = `client ${counter}`;
		const timer = setTimeout(() => {
			socket.destroy();
		}, helloTimeoutMs);
		socket.setEncoding('utf8');
		socket.on('error', () => undefined);
		socket.on('close', () => {
			clearTimeout(timer);
		});
		const attach = (feed: boolean, rest: string) => {
			const client: Client = {socket, name, feed};
			clients.add(client);
			const reader = createClientLines({client, history, send, drop, log, nextTurn, logs});
			const read = createLineSplitter(maxRequestBytes);
			const onLines = (more: ReadonlyArray<string | undefined>) => {
				for (const text of more) {
					if (!clients.has(client) || !reader.take(text)) {
						return;
					}
				}
			};

			socket.on('data', (next: string) => {
				onLines(read(next));
			});
			socket.on('close', () => {
				clients.delete(client);
				reader.close();
			});
			const features = [...(history?.features() ?? []), ...(logs ? (['logs'] as const) : []), 'workers' as const, 'balance' as const];
			const at = new Date().toISOString();
			if (client.feed) {
				// The greeting with the account spliced in as its last field: the same text as one `protocolLine`.
				const greeting = protocolLine({...about(), type: 'snapshot', at, protocol: agentProtocolVersion, features});
				send(client, `${greeting.slice(0, -2)},"account":${accountText()}}\n`);
			} else {
				send(client, protocolLine({...about(), type: 'attached', at, protocol: agentProtocolVersion, features}));
			}

			log(`${name} attached${client.feed ? '' : ' for history'} (${clients.size} in all)`);
			onLines(read(rest));
		};

		const handshake = createAgentHandshake(secret);
		let heard = '';
		const onHello = (chunk: string) => {
			heard += chunk;
			let newline = heard.indexOf('\n');
			while (newline !== -1 && newline <= maxHelloBytes) {
				const step = handshake(heard.slice(0, newline));
				// What came after the proof (a client that asks at once) is read as the lines that follow.
				heard = heard.slice(newline + 1);
				if ('refused' in step) {
					log(`${name} refused: ${step.refused}`);
					socket.off('data', onHello);
					clearTimeout(timer);
					socket.end(step.answer);
					return;
				}

				if ('attached' in step) {
					socket.off('data', onHello);
					clearTimeout(timer);
					attach(step.attached.feed, heard);
					return;
				}

				socket.write(step.answer);
				newline = heard.indexOf('\n');
			}

			if (newline > maxHelloBytes || heard.length > maxHelloBytes) {
				log(`${name} refused: a line over ${maxHelloBytes / 1024} KB before the account was proven`);
				socket.off('data', onHello);
				clearTimeout(timer);
				socket.destroy();
			}
		};

		socket.on('data', onHello);
	};

	const server = createServer(greet);
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(socketPath, () => {
			server.off('error', reject);
			resolve();
		});
	});
	protectSocket(socketPath, gid);

	const toFeeds = (text: string) => {
		for (const client of clients) {
			if (client.feed) {
				send(client, text);
			}
		}
	};

	const pacing = createPodPacing();
	const unsubscribe = store.subscribe((next, previous) => {
		if (clients.size === 0) {
			return;
		}

		const at = new Date().toISOString();
		const events = pacing.take(
			[
				...changeEvents(previous, next, at).filter(event => event.type !== 'job'),
				...workerEvents(previous, next, at),
				...(previous.balance === next.balance ? [] : [{type: 'balance', at, balance: next.balance ?? null}]),
			],
			podId => previous.pods.byId[podId]?.record,
		);
		if (events.length > 0) {
			toFeeds(events.map(event => protocolLine(event)).join(''));
		}
	});
	let paced: NodeJS.Timeout | undefined;
	const flushPods = () => {
		const events = pacing.flush();
		if (events.length > 0 && clients.size > 0) {
			toFeeds(events.map(event => protocolLine(event)).join(''));
		}

		paced = setTimeout(flushPods, podRuntimeMs());
	};

	paced = setTimeout(flushPods, podRuntimeMs());

	let lastTick = Date.now();
	const ticker = setInterval(() => {
		// Kept for the attachments of one second at most.
		snapshot = undefined;
		const now = Date.now();
		// A tick this late: the agent's own loop was held up (clients in its process cannot read while it is), so the wait is not counted against them.
		const stalled = now - lastTick - tickMs;
		lastTick = now;
		if (stalled > loopStallMs) {
			for (const client of clients) {
				if (client.pendingSince !== undefined) {
					client.pendingSince += stalled;
				}
			}
		}

		const text = protocolLine({type: 'tick', at: new Date(now).toISOString(), connection: store.getState().connection});
		for (const client of clients) {
			const handed = handedOver(client.socket);
			if (client.pendingSince !== undefined && handed > (client.handed ?? 0)) {
				// Reading, if slower than it is sent to: its buffer is bounded by `maxBufferBytes`.
				client.pendingSince = now;
				client.handed = handed;
			} else if (client.pendingSince !== undefined && now - client.pendingSince > drainTimeoutMs) {
				drop(client, `nothing read for ${Math.round((now - client.pendingSince) / 1000)} s`);
			} else if (client.feed || client.following) {
				send(client, text);
			}
		}
	}, tickMs);

	let closing: Promise<void> | undefined;
	return {
		socketPath,
		clientCount: () => clients.size,
		async close() {
			closing ??= (async () => {
				clearInterval(ticker);
				clearTimeout(paced);
				snapshot = undefined;
				unsubscribe();
				logs?.close();
				for (const client of clients) {
					client.socket.destroy();
				}

				clients.clear();
				await new Promise<void>(resolve => {
					server.close(() => {
						resolve();
					});
				});
				try {
					unlinkSync(socketPath);
				} catch {}
			})();
			return closing;
		},
	};
}

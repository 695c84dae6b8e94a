import {unlinkSync} from 'node:fs';
import {createServer, type Socket} from 'node:net';
import {agentProtocolVersion, agentTickMs, createLineSplitter, maxHelloBytes, proofMatches} from '../api/agent-protocol.js';
import {accountSnapshot} from '../store/account-snapshot.js';
import {changeEvents} from '../store/change-events.js';
import type {PodtopStore} from '../store/create-store.js';
import {prepareSocketPath, protectSocket} from './socket-file.js';

export type AgentServer = {
	readonly socketPath: string;
	/** Clients attached now. */
	readonly clientCount: () => number;
	readonly close: () => Promise<void>;
};

type Options = {
	readonly store: PodtopStore;
	readonly socketPath: string;
	/** `accountProof(key)` of the agent's own key: a client must show the same. */
	readonly proof: string;
	/** Open the socket to this group (0660) as well as to its owner (0600). */
	readonly gid?: number;
	/** A client whose output has waited this long to drain is dropped… */
	readonly drainTimeoutMs?: number;
	/** …as is one with this much unsent: the agent never buffers without bound for a stuck reader. */
	readonly maxBufferBytes?: number;
	readonly tickMs?: number;
	/** How long a new connection may take to say hello. */
	readonly helloTimeoutMs?: number;
	/** One line per client attached, refused or dropped (stderr in `podtop agent`). */
	readonly log?: (line: string) => void;
};

type Client = {readonly socket: Socket; readonly name: string; pendingSince?: number};

const line = (message: unknown) => `${JSON.stringify(message)}\n`;

/**
Serves a store on a Unix socket: each client that proves the account gets the store's picture of
it, then every change as the events of `podtop watch --jsonl` and a tick a second with the poll
sources' state. Each change is serialised once for all clients.
*/
export async function serveAgent({
	store,
	socketPath,
	proof,
	gid,
	drainTimeoutMs = 10_000,
	maxBufferBytes = 64 * 1024 * 1024,
	tickMs = agentTickMs,
	helloTimeoutMs = 2000,
	log = () => undefined,
}: Options): Promise<AgentServer> {
	await prepareSocketPath(socketPath, gid);
	const clients = new Set<Client>();
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

		if (!client.socket.write(text) && client.pendingSince === undefined) {
			client.pendingSince = Date.now();
			client.socket.once('drain', () => {
				client.pendingSince = undefined;
			});
		}
	};

	const greet = (socket: Socket) => {
		counter += 1;
		const name = `client ${counter}`;
		const split = createLineSplitter(maxHelloBytes);
		const timer = setTimeout(() => {
			socket.destroy();
		}, helloTimeoutMs);
		socket.setEncoding('utf8');
		socket.on('error', () => undefined);
		socket.on('close', () => {
			clearTimeout(timer);
		});
		const onHello = (chunk: string) => {
			const lines = split(chunk);
			if (lines.length === 0) {
				return;
			}

			const first = lines[0];
			socket.off('data', onHello);
			clearTimeout(timer);
			let hello: {type?: unknown; protocol?: unknown; account?: unknown} | undefined;
			try {
				hello = first === undefined ? undefined : (JSON.parse(first) as typeof hello);
			} catch {}

			const refusal =
				hello?.type === 'hello'
					? hello.protocol === agentProtocolVersion
						? proofMatches(proof, hello.account)
							? undefined
							: 'another account'
						: `protocol ${agentProtocolVersion} only`
					: 'say hello first';
			if (refusal) {
				log(`${name} refused: ${refusal}`);
				socket.end(line({type: 'refused', reason: refusal}));
				return;
			}

			const client: Client = {socket, name};
			clients.add(client);
			socket.on('close', () => {
				clients.delete(client);
			});
			// Whatever the client sends from now on is not read: its input buffer is its own business.
			socket.resume();
			send(client, line({type: 'snapshot', at: new Date().toISOString(), protocol: agentProtocolVersion, account: accountSnapshot(store.getState())}));
			log(`${name} attached (${clients.size} in all)`);
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

	const unsubscribe = store.subscribe((next, previous) => {
		if (clients.size === 0) {
			return;
		}

		const events = changeEvents(previous, next, new Date().toISOString()).filter(event => event.type !== 'job');
		if (events.length > 0) {
			const text = events.map(event => JSON.stringify(event)).join('\n') + '\n';
			for (const client of clients) {
				send(client, text);
			}
		}
	});

	const ticker = setInterval(() => {
		const now = Date.now();
		const text = line({type: 'tick', at: new Date(now).toISOString(), connection: store.getState().connection});
		for (const client of clients) {
			if (client.pendingSince !== undefined && now - client.pendingSince > drainTimeoutMs) {
				drop(client, `nothing read for ${Math.round((now - client.pendingSince) / 1000)} s`);
			} else {
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
				unsubscribe();
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

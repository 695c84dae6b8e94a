import {createHmac, randomBytes} from 'node:crypto';
import {createConnection, createServer, type Server, type Socket} from 'node:net';

/** The handshake's proofs, written out here as the protocol states them (a second reading of `agent-handshake.ts`). */
export const handshakeProof = (secret: string, label: 'agent' | 'client', first: string, second: string) =>
	createHmac('sha256', secret).update(['podtop agent proof', label, first, second].join('\0')).digest('hex');

export type RawAgentClient = {
	readonly socket: Socket;
	/** Every line after the challenge, as JSON. */
	readonly lines: any[];
	/** Every line the client sent, as it went. */
	readonly sent: string[];
	/** Sends a line once the client has sent its proof (right away after). */
	readonly write: (text: string) => void;
	readonly closed: Promise<void>;
	readonly isClosed: () => boolean;
};

/**
A client speaking the protocol by hand: a hello, its proof for the agent's challenge (made with
`secret`, whatever the agent proves), then every line read as JSON. `read: false` stops reading
once the proof is sent (a client that never reads).
*/
export function rawAgentClient(socketPath: string, secret: string, {feed = true, read = true} = {}): RawAgentClient {
	const socket = createConnection(socketPath);
	const lines: any[] = [];
	const sent: string[] = [];
	const queued: string[] = [];
	let proven = false;
	let pending = '';
	const nonce = randomBytes(32).toString('hex');
	const send = (text: string) => {
		sent.push(text);
		socket.write(text);
	};

	socket.setEncoding('utf8');
	socket.on('error', () => undefined);
	send(`${JSON.stringify({type: 'hello', protocol: 2, nonce, ...(feed ? {} : {feed: false})})}\n`);
	socket.on('data', (chunk: string) => {
		pending += chunk;
		const parts = pending.split('\n');
		pending = parts.pop()!;
		for (const part of parts) {
			const message = JSON.parse(part);
			if (!proven && message.type === 'challenge') {
				proven = true;
				send(`${JSON.stringify({type: 'proof', proof: handshakeProof(secret, 'client', nonce, message.nonce)})}\n`);
				for (const text of queued.splice(0)) {
					send(text);
				}

				if (!read) {
					socket.pause();
				}
			} else {
				lines.push(message);
			}
		}
	});
	const closed = new Promise<void>(resolve =>
		socket.once('close', () => {
			resolve();
		}),
	);
	return {
		socket,
		lines,
		sent,
		write(text) {
			if (proven) {
				send(text);
			} else {
				queued.push(text);
			}
		},
		closed,
		isClosed: () => socket.destroyed || socket.readableEnded,
	};
}

export type FakeAgent = {
	readonly server: Server;
	/** What each connection sent, in order, one string per connection. */
	readonly heard: string[];
	readonly connections: Socket[];
	readonly close: () => Promise<void>;
};

/**
An agent played by hand on a real Unix socket: `answer` is called with each connection and what it
has heard so far, and writes what it likes. `allowHalfOpen`: it never closes its end by itself.
*/
export async function startFakeAgent(socketPath: string, answer: (socket: Socket, heard: string) => void, {allowHalfOpen = false} = {}): Promise<FakeAgent> {
	const heard: string[] = [];
	const connections: Socket[] = [];
	const server = createServer({allowHalfOpen}, socket => {
		const index = heard.push('') - 1;
		connections.push(socket);
		socket.setEncoding('utf8');
		socket.on('error', () => undefined);
		socket.on('data', (chunk: string) => {
			heard[index] += chunk;
			answer(socket, heard[index]!);
		});
	});
	await new Promise<void>(resolve => {
		server.listen(socketPath, resolve);
	});
	return {
		server,
		heard,
		connections,
		async close() {
			for (const socket of connections) {
				socket.destroy();
			}

			await new Promise(resolve => {
				server.close(resolve);
			});
		},
	};
}

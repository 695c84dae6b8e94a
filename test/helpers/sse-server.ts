import {createServer, type IncomingMessage, type ServerResponse} from 'node:http';
import type {AddressInfo, Socket} from 'node:net';

export type SseServer = {
	readonly url: string;
	/** Every request's URL and headers, in order. */
	readonly requests: Array<{readonly url: string; readonly headers: IncomingMessage['headers']}>;
	readonly close: () => Promise<void>;
};

/** A real HTTP server answering each request with `answer` (a log stream written by hand: hostile bytes, drops, stalls). */
export async function startSseServer(answer: (request: IncomingMessage, response: ServerResponse, index: number) => void): Promise<SseServer> {
	const requests: SseServer['requests'] = [];
	const sockets = new Set<Socket>();
	const server = createServer((request, response) => {
		requests.push({url: request.url ?? '', headers: request.headers});
		answer(request, response, requests.length - 1);
	});
	server.on('connection', socket => {
		sockets.add(socket);
		socket.once('close', () => sockets.delete(socket));
	});
	await new Promise<void>(resolve => {
		server.listen(0, '127.0.0.1', resolve);
	});
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		requests,
		async close() {
			for (const socket of sockets) {
				socket.destroy();
			}

			await new Promise(resolve => {
				server.close(resolve);
			});
		},
	};
}

export const sseHead = {'content-type': 'text/event-stream', 'cache-control': 'no-cache'} as const;

/** One event as the spec sends it. */
export const sseEvent = (seq: number, line: string, source = 'container') =>
	`id: 2026-06-01T12:00:00Z/${String(seq).padStart(12, '0')}\ndata: ${JSON.stringify({ts: '2026-06-01T12:00:00Z', source, line})}\n\n`;

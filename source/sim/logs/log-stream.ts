import type {ServerResponse} from 'node:http';
import {eventId, backlogOf, type LogQuery} from './log-query.js';
import type {LogLine, LogRing} from './log-ring.js';

/**
Real ms between keep-alive comments on a quiet stream. The service does not publish its cadence; 15 s keeps
a stream alive behind proxies that drop idle connections after 60 s, and a comment is ignored by SSE parsers.
*/
export const keepAliveMs = 15_000;

/** Past this many unsent bytes (a client that stopped reading), the stream is dropped: it resumes with `Last-Event-ID`. */
const backlogBytes = 1024 * 1024;

export const sseHeaders = {
	'content-type': 'text/event-stream',
	'cache-control': 'no-cache',
	connection: 'keep-alive',
	'x-accel-buffering': 'no',
} as const;

/** One line as an event: `id`, one `data` line of JSON (`ts`, `source`, `line`), a blank line; no `event` field. */
export function formatEvent(line: LogLine): string {
	const data = JSON.stringify({ts: new Date(Math.floor(line.ts / 1000) * 1000).toISOString().replace('.000Z', 'Z'), source: line.source, line: line.line});
	return `id: ${eventId(line)}\ndata: ${data}\n\n`;
}

/**
Serves a log as server-sent events on a response whose head is written: the backlog the query asks for, then
every new line as it is written, with no gap and no line twice (both are read in one turn of the event loop).
The stream ends when the ring closes (the worker or pod is gone) and otherwise never by itself.
*/
export function streamLog(response: ServerResponse, ring: LogRing, query: LogQuery): void {
	let last = 0;
	const send = (line: LogLine) => {
		if (line.seq <= last || (query.source && line.source !== query.source)) {
			return;
		}

		last = line.seq;
		response.write(formatEvent(line));
		if (response.writableLength > backlogBytes) {
			response.destroy();
		}
	};

	const backlog = backlogOf(ring.lines(), query);
	response.write(backlog.map(line => formatEvent(line)).join(''));
	last = backlog.at(-1)?.seq ?? query.after?.seq ?? 0;
	const keepAlive = setInterval(() => {
		response.write(': keep-alive\n\n');
	}, keepAliveMs);
	const stop = ring.follow(send, () => {
		clearInterval(keepAlive);
		response.end();
	});
	response.once('close', () => {
		clearInterval(keepAlive);
		stop();
	});
}

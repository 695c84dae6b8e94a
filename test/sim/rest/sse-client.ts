import {request} from 'undici';
import {expect} from 'vitest';
import type {Reply} from '../../helpers/sim-client.js';
import type {RestSim} from './rest-client.js';
import {expectConforms, spec} from './contract.js';

export type LogEvent = {readonly id: string; readonly data: {readonly ts: string; readonly source: string; readonly line: string}};

export type LogStream = {
	readonly status: number;
	/** The answer as the contract checks it (the problem for an error; headers only for a stream). */
	readonly reply: Reply;
	/** Resolves with the next `count` events (all events read so far stay in `events`). */
	readonly take: (count: number) => Promise<LogEvent[]>;
	/** Resolves with the next events up to the first that `last` accepts (all of them if the stream ends first). */
	readonly takeUntil: (last: (event: LogEvent) => boolean) => Promise<LogEvent[]>;
	readonly events: LogEvent[];
	/** Keep-alive comments seen. */
	readonly comments: () => number;
	/** Settles when the server ends the stream. */
	readonly ended: Promise<void>;
	readonly close: () => void;
};

const logSources = (spec as unknown as {components: {schemas: {LogSource: {enum: string[]}}}}).components.schemas.LogSource.enum;
const timestamp = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

/** One event as the spec and the notes define it: an `id` of its second and sequence, one JSON `data` line with `ts`, `source`, `line`; nothing else. */
function parseEvent(block: string): LogEvent {
	const fields = block.split('\n').map(line => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)] as const);
	expect(
		fields.map(([name]) => name),
		`event fields of ${JSON.stringify(block)}`,
	).toEqual(['id', 'data']);
	const [[, id], [, text]] = fields as [[string, string], [string, string]];
	const data = JSON.parse(text) as LogEvent['data'];
	expect(Object.keys(data)).toEqual(['ts', 'source', 'line']);
	expect(data.ts).toMatch(timestamp);
	expect(logSources).toContain(data.source);
	expect(typeof data.line).toBe('string');
	expect(id).toMatch(/^\S+Z\/\d{12}$/);
	expect(id.split('/')[0]).toBe(data.ts);
	return {id, data};
}

/** Opens a v2 log stream over real HTTP and reads its events as they come; an error answer is checked against the spec. */
export async function openLogStream(sim: RestSim, path: string, headers: Record<string, string> = {}): Promise<LogStream> {
	const abort = new AbortController();
	const response = await request(`${sim.url}${path}`, {
		headers: {authorization: `Bearer ${sim.apiKey}`, ...headers},
		signal: abort.signal,
		headersTimeout: 20_000,
		bodyTimeout: 0,
	});
	if (response.statusCode !== 200) {
		const text = await response.body.text();
		const reply = {status: response.statusCode, headers: response.headers, body: JSON.parse(text) as unknown};
		expectConforms('GET', path, reply);
		return {status: reply.status, reply, take: async () => [], takeUntil: async () => [], events: [], comments: () => 0, ended: Promise.resolve(), close() {}};
	}

	const reply = {status: 200, headers: response.headers, body: ''};
	expectConforms('GET', path, reply);
	expect(response.headers).toMatchObject({'cache-control': 'no-cache', 'x-accel-buffering': 'no'});
	const events: LogEvent[] = [];
	let comments = 0;
	let wake: (() => void) | undefined;
	const nextChunk = async () =>
		new Promise<void>(resolve => {
			wake = resolve;
		});
	let buffer = '';
	let done = false;
	const ended = (async () => {
		try {
			for await (const chunk of response.body) {
				buffer += String(chunk);
				let end = buffer.indexOf('\n\n');
				while (end !== -1) {
					const block = buffer.slice(0, end);
					buffer = buffer.slice(end + 2);
					if (block.startsWith(':')) {
						comments++;
					} else {
						events.push(parseEvent(block));
					}

					end = buffer.indexOf('\n\n');
				}

				wake?.();
			}
		} catch (error) {
			if (!abort.signal.aborted) {
				throw error;
			}
		} finally {
			done = true;
			wake?.();
		}
	})();
	let read = 0;
	const take = async (count: number) => {
		// `done` is set by the reader as the stream ends.
		// eslint-disable-next-line no-unmodified-loop-condition
		while (events.length < read + count && !done) {
			await nextChunk();
		}

		const taken = events.slice(read, read + count);
		read += taken.length;
		return taken;
	};

	return {
		status: 200,
		reply,
		events,
		comments: () => comments,
		ended,
		take,
		async takeUntil(last) {
			const taken: LogEvent[] = [];
			for (let [next] = await take(1); next; [next] = await take(1)) {
				taken.push(next);
				if (last(next)) {
					break;
				}
			}

			return taken;
		},
		close() {
			abort.abort();
		},
	};
}

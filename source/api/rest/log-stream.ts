import {createParser} from 'eventsource-parser';
import type {LogLine, LogQuery, LogTarget} from '../../model/log-line.js';
import type {StreamOptions} from '../../model/management-api.js';
import {ApiError} from '../errors.js';
import type {Pools} from '../pools.js';
import {maxProblemBytes} from './bounded-response.js';
import {logLineOf} from './log-event.js';
import type {RestAnswerSeen} from './rest-client.js';
import {malformedAnswer, restError, thrownError} from './rest-errors.js';
import {maxEventChars, SseBounds} from './sse-bounds.js';

type Options = {
	readonly baseUrl: string;
	readonly apiKey: string;
	readonly pools: Pools;
	readonly onAnswer?: (answer: RestAnswerSeen) => void;
};

type Headers = Record<string, string | string[] | undefined>;

const headerReader = (headers: Headers): RestAnswerSeen['headers'] => ({
	get(name) {
		const value = headers[name.toLowerCase()];
		return Array.isArray(value) ? value.join(', ') : (value ?? null);
	},
});

/** The route of a target's log, its ids URL-encoded. */
const logPath = (target: LogTarget) =>
	target.kind === 'pod'
		? `/v2/pods/${encodeURIComponent(target.podId)}/logs`
		: `/v2/serverless/${encodeURIComponent(target.endpointId)}/workers/${encodeURIComponent(target.workerId)}/logs`;

const labelOf = (target: LogTarget) => (target.kind === 'pod' ? `logs of pod ${target.podId}` : `logs of worker ${target.workerId}`);

/** `tail`, `since` (RFC 3339, whole seconds) and `source` as the spec's query; `Last-Event-ID` goes as a header. */
function queryOf(query: LogQuery): string {
	const parameters = new URLSearchParams();
	if (query.source) {
		parameters.set('source', query.source);
	}

	if (query.tail !== undefined) {
		parameters.set('tail', String(Math.max(0, Math.min(5000, Math.floor(query.tail)))));
	}

	if (query.since !== undefined) {
		parameters.set('since', new Date(Math.floor(query.since / 1000) * 1000).toISOString().replace('.000Z', 'Z'));
	}

	const text = parameters.toString();
	return text === '' ? '' : `?${text}`;
}

/** Closes a body not read to its end (an undici body destroyed with no error listener throws its AbortError). */
function letGo(body: {on: (event: 'error', listener: () => void) => unknown; destroy: () => void}): void {
	body.on('error', () => undefined);
	body.destroy();
}

/** An error answer's body, at most `maxProblemBytes` of it read, as JSON when it is. */
async function problemBody(body: AsyncIterable<Uint8Array> & Parameters<typeof letGo>[0]): Promise<unknown> {
	const parts: Uint8Array[] = [];
	let length = 0;
	try {
		for await (const chunk of body) {
			parts.push(chunk);
			length += chunk.byteLength;
			if (length >= maxProblemBytes) {
				break;
			}
		}
	} catch {
		// A problem body that breaks off says nothing more than its status.
	} finally {
		letGo(body);
	}

	try {
		return JSON.parse(Buffer.concat(parts).subarray(0, maxProblemBytes).toString('utf8')) as unknown;
	} catch {
		return undefined;
	}
}

/**
REST v2's log stream (server-sent events) over the origin's stream pool: the key in the Authorization
header only, `Last-Event-ID` when resuming. Its text is decoded as UTF-8 (invalid bytes replaced) and
bounded as it streams in (see SseBounds: a 1 MB line is never held whole; its start is kept, marked
`truncated`), then parsed by eventsource-parser; each event becomes a LogLine (see logLineOf). An
answer other than 200 is the ApiError its status gives (404 not found, 429 with its Retry-After), and
every answer's headers go to `onAnswer` first. Resolves when the service ends the stream or the
signal aborts; rejects when it breaks off (a network error: resume with the last line's id).
*/
export function createLogStream({baseUrl, apiKey, pools, onAnswer}: Options) {
	const base = new URL(baseUrl);
	const prefix = base.pathname.replace(/\/+$/, '');
	return async (target: LogTarget, query: LogQuery, onLine: (line: LogLine) => void, {signal, onOpen, onBytes}: StreamOptions): Promise<void> => {
		const label = labelOf(target);
		const pool = pools.streams(base);
		let answer;
		try {
			answer = await pool.request({
				method: 'GET',
				path: `${prefix}${logPath(target)}${queryOf(query)}`,
				headers: {
					authorization: `Bearer ${apiKey}`,
					accept: 'text/event-stream',
					'user-agent': 'podtop',
					...(query.lastEventId === undefined ? {} : {'last-event-id': query.lastEventId}),
				},
				signal,
			});
		} catch (error) {
			throw thrownError(error, label);
		}

		const {statusCode, headers, body} = answer;
		onAnswer?.({status: statusCode, headers: headerReader(headers)});
		if (statusCode !== 200) {
			const problem = await problemBody(body);
			throw restError({status: statusCode, body: problem, retryAfter: headerReader(headers).get('retry-after')}, label, apiKey);
		}

		const type = headerReader(headers).get('content-type') ?? '';
		if (!type.toLowerCase().startsWith('text/event-stream')) {
			letGo(body);
			throw malformedAnswer(label);
		}

		onOpen?.();
		let cut = false;
		const bounds = new SseBounds(() => {
			cut = true;
		});
		const parser = createParser({
			// SseBounds keeps an event under maxEventChars; this is the parser's own backstop.
			maxBufferSize: maxEventChars * 2,
			onEvent(event) {
				const wasCut = cut;
				cut = false;
				onLine(logLineOf({id: event.id, data: event.data}, wasCut, query.source));
			},
		});
		const decoder = new TextDecoder('utf-8');
		try {
			for await (const chunk of body as AsyncIterable<Uint8Array>) {
				onBytes?.();
				parser.feed(bounds.take(decoder.decode(chunk, {stream: true})));
			}

			parser.feed(bounds.take(decoder.decode()));
		} catch (error) {
			if (signal.aborted) {
				return;
			}

			throw error instanceof ApiError ? error : thrownError(error, label);
		} finally {
			letGo(body);
		}
	};
}

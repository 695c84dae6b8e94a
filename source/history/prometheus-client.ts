import {createGunzip} from 'node:zlib';
import type {Dispatcher} from 'undici';
import {ApiError, fromTransportError, kindForStatus} from '../api/errors.js';
import {JsonBoundError, parseSplitJson} from '../api/json-stream.js';
import {Pools} from '../api/pools.js';
import {rememberSecret} from '../api/redact.js';
import {sanitizeLine} from '../format/sanitize.js';

export type PrometheusClientOptions = {
	/** The Prometheus (or Thanos, Mimir) base URL, maybe with `user:password@` and a path prefix. */
	readonly url: string;
	/** How long one request may take, answer included. */
	readonly timeoutMs?: number;
	/** Answers larger than this (uncompressed) are refused. */
	readonly maxBytes?: number;
};

/** A form field of a request: repeated when it is a list (`match[]`). */
type Form = Readonly<Record<string, string | readonly string[]>>;

export type PrometheusClient = {
	/** The URL without credentials, query or fragment: what may be shown. */
	readonly source: string;
	/** POSTs a form to an API path and answers the envelope's `data` (a failure is an ApiError). */
	readonly post: (path: string, form: Form) => Promise<unknown>;
	readonly get: (path: string) => Promise<unknown>;
	readonly close: () => Promise<void>;
};

export const defaultTimeoutMs = 30_000;
export const defaultMaxBytes = 64 * 1024 * 1024;

/** The URL as it may be shown: no user, no password, no query. */
export function redactedSource(url: URL): string {
	return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** The envelope's error, said safely: Prometheus repeats the query (not a secret) and whatever the service put in it. */
function envelopeError(text: string): {readonly type: string | undefined; readonly message: string | undefined} {
	try {
		const body = JSON.parse(text) as {errorType?: unknown; error?: unknown};
		return {
			type: typeof body.errorType === 'string' ? body.errorType : undefined,
			message: typeof body.error === 'string' ? sanitizeLine(body.error).slice(0, 300) : undefined,
		};
	} catch {
		return {type: undefined, message: undefined};
	}
}

/**
What podtop reads from a Prometheus, bounded by what it asks (a hostile server must not take the
process down: the heap is 256 MB, and 60 MB of matrix had filled it once parsed).
- depth 8: the deepest answer is a range query's matrix, 6 containers (envelope, data, result, a
  series, its values, a pair); two more leave room for what a Thanos or Mimir adds beside.
- 20,000 series: a series is one metric of one thing, and podtop asks for a few things at a time
  (the rows on screen, one thing for `podtop history`); `/api/v1/series` lists every thing of a
  fleet of 1,000 endpoints and 10,000 pods, each under its identity metric.
- 11,002 arrays and objects in a series: Prometheus answers at most 11,000 points a series (podtop
  asks for 10,000 at most, prometheus-queries.ts), plus its labels and its list of values.
- 510,000 arrays and objects in all: 500,000 points with the labels and lists of their series (50
  series of 10,000 points, or 6 hours of 15 s scrapes of 340 series), 88 bytes a point once parsed
  (a pair of a number and a short string): 45 MB.
- 4 MB in one piece: a series of 11,000 points is some 350 KB of text.
- 1 M characters beside the list: the envelope, the result type, warnings and the list of indices.
*/
export const answerBounds = {
	depth: 8,
	elements: 20_000,
	perElement: 11_002,
	inElements: 510_000,
	keptBytes: 4 * 1024 * 1024,
	skeletonChars: 1024 * 1024,
} as const;

/** What an error answer is read of: Prometheus says the error in a line, with the query. */
const maxErrorBytes = 64 * 1024;

/** The answer's bytes as they come, gunzipped when they came compressed, refused past `maxBytes`. */
async function* bodyBytes(response: Dispatcher.ResponseData, maxBytes: number, what: string): AsyncGenerator<Buffer> {
	const gzip = String(response.headers['content-encoding'] ?? '').toLowerCase() === 'gzip';
	const source: AsyncIterable<Buffer> = gzip ? response.body.pipe(createGunzip()) : response.body;
	let size = 0;
	for await (const chunk of source) {
		size += chunk.length;
		if (size > maxBytes) {
			throw new ApiError('invalid', `${what}: the answer is over ${Math.round(maxBytes / 1024 / 1024)} MB; ask for a shorter range or a larger step`);
		}

		yield chunk;
	}
}

/** An error answer's start as text (the rest is not read). */
async function errorText(response: Dispatcher.ResponseData, what: string): Promise<string> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of bodyBytes(response, Number.POSITIVE_INFINITY, what)) {
		chunks.push(chunk);
		size += chunk.length;
		if (size >= maxErrorBytes) {
			break;
		}
	}

	return Buffer.concat(chunks).toString('utf8').slice(0, maxErrorBytes);
}

/** The list a path's answer holds, parsed an element at a time: the series API's `data`, a query's `data.result`. */
const listPath = (path: string): readonly string[] => (path.endsWith('/series') ? ['data'] : ['data', 'result']);

/** The answer's envelope with its list put together again from the elements streamed apart. */
function joined(document: unknown, path: readonly string[], elements: readonly unknown[]): unknown {
	let parent: unknown = document;
	for (const key of path.slice(0, -1)) {
		parent = typeof parent === 'object' && parent !== null ? (parent as Record<string, unknown>)[key] : undefined;
	}

	const last = path.at(-1)!;
	const list = typeof parent === 'object' && parent !== null ? (parent as Record<string, unknown>)[last] : undefined;
	if (Array.isArray(list)) {
		(parent as Record<string, unknown>)[last] = (list as unknown[]).map((item: unknown) => (typeof item === 'number' ? elements[item] : item));
	}

	return document;
}

/**
An HTTP client of one Prometheus's API (undici, one pool, explicit timeouts). Basic auth in the URL
is sent as a header and never shown: errors name the host only, and the password is remembered as
a secret so a crash report cannot print it.
*/
export function createPrometheusClient({url, timeoutMs = defaultTimeoutMs, maxBytes = defaultMaxBytes}: PrometheusClientOptions): PrometheusClient {
	const parsed = new URL(url);
	const base = parsed.pathname.replace(/\/+$/, '');
	const headers: Record<string, string> = {accept: 'application/json', 'accept-encoding': 'gzip'};
	if (parsed.username || parsed.password) {
		const password = decodeURIComponent(parsed.password);
		rememberSecret(password);
		headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(parsed.username)}:${password}`).toString('base64')}`;
	}

	const what = `Prometheus at ${parsed.host}`;
	const pools = new Pools({connectMs: Math.min(5000, timeoutMs), headersMs: timeoutMs, bodyMs: timeoutMs, keepAliveMs: 65_000});
	const pool = pools.for(parsed.origin);

	const request = async (method: 'GET' | 'POST', path: string, body?: string): Promise<unknown> => {
		let response: Dispatcher.ResponseData;
		let envelope: {status?: unknown; data?: unknown; error?: unknown; errorType?: unknown} | undefined;
		let text = '';
		// The whole exchange, answer included, in `timeoutMs` (undici's own timeouts bound each wait, not a slow trickle).
		const stop = new AbortController();
		const timer = setTimeout(() => {
			stop.abort(new DOMException('no answer in time', 'TimeoutError'));
		}, timeoutMs);
		try {
			response = await pool.request({
				path: `${base}${path}`,
				method,
				headers: body === undefined ? headers : {...headers, 'content-type': 'application/x-www-form-urlencoded'},
				body,
				signal: stop.signal,
			});
			if (response.statusCode >= 200 && response.statusCode < 300) {
				const list = listPath(path);
				const split = await parseSplitJson(bodyBytes(response, maxBytes, what), list, answerBounds);
				envelope = joined(split.document, list, split.elements) as typeof envelope;
			} else {
				text = await errorText(response, what);
			}
		} catch (error) {
			if (error instanceof JsonBoundError || error instanceof SyntaxError) {
				response!.body.destroy();
			}

			if (error instanceof JsonBoundError) {
				throw new ApiError(
					'invalid',
					`${what}: the answer ${error.message}, more than podtop asks for; ask for a shorter range, a larger step or fewer things`,
				);
			}

			if (error instanceof SyntaxError) {
				throw new ApiError('server', `${what}: the answer was not JSON`, {status: response!.statusCode, cause: error});
			}

			if (error instanceof ApiError) {
				response!.body.destroy();
				throw error;
			}

			throw fromTransportError(stop.signal.aborted ? stop.signal.reason : error, what);
		} finally {
			clearTimeout(timer);
		}

		const {statusCode} = response;
		if (statusCode < 200 || statusCode >= 300) {
			const {type, message} = envelopeError(text);
			if (statusCode === 401 || statusCode === 403) {
				throw new ApiError('auth', `${what} refused the credentials (HTTP ${statusCode}): check the user and password in the URL`, {status: statusCode});
			}

			if (statusCode === 404) {
				throw new ApiError('invalid', `${what}: no Prometheus API at ${redactedSource(parsed)} (HTTP 404); Thanos or Mimir may need a path like /prometheus`, {
					status: statusCode,
				});
			}

			const kind = type === 'timeout' ? 'timeout' : kindForStatus(statusCode);
			throw new ApiError(kind, `${what}: ${message ?? `HTTP ${statusCode}`}`, {status: statusCode});
		}

		if (envelope?.status !== 'success') {
			const message = typeof envelope?.error === 'string' ? sanitizeLine(envelope.error).slice(0, 300) : undefined;
			throw new ApiError('server', `${what}: ${message ?? 'the answer was not a success'}`, {status: statusCode});
		}

		return envelope.data;
	};

	return {
		source: redactedSource(parsed),
		async post(path, form) {
			const body = new URLSearchParams();
			for (const [name, value] of Object.entries(form)) {
				for (const each of typeof value === 'string' ? [value] : value) {
					body.append(name, each);
				}
			}

			return request('POST', path, body.toString());
		},
		get: async path => request('GET', path),
		close: async () => pools.close(),
	};
}

import {createGunzip} from 'node:zlib';
import type {Dispatcher} from 'undici';
import {ApiError, fromTransportError, kindForStatus} from '../api/errors.js';
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

/** The answer's body as text, gunzipped when it came compressed, refused past `maxBytes`. */
async function readBody(response: Dispatcher.ResponseData, maxBytes: number, what: string): Promise<string> {
	const gzip = String(response.headers['content-encoding'] ?? '').toLowerCase() === 'gzip';
	const source: AsyncIterable<Buffer> = gzip ? response.body.pipe(createGunzip()) : response.body;
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of source) {
		size += chunk.length;
		if (size > maxBytes) {
			response.body.destroy();
			throw new ApiError('invalid', `${what}: the answer is over ${Math.round(maxBytes / 1024 / 1024)} MB; ask for a shorter range or a larger step`);
		}

		chunks.push(chunk);
	}

	return Buffer.concat(chunks).toString('utf8');
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
		let text: string;
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
			text = await readBody(response, maxBytes, what);
		} catch (error) {
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

		let envelope: {status?: unknown; data?: unknown};
		try {
			envelope = JSON.parse(text) as typeof envelope;
		} catch (error) {
			throw new ApiError('server', `${what}: the answer was not JSON`, {status: statusCode, cause: error});
		}

		if (envelope.status !== 'success') {
			throw new ApiError('server', `${what}: ${envelopeError(text).message ?? 'the answer was not a success'}`, {status: statusCode});
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

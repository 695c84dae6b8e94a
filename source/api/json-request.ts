import type {Dispatcher, Pool} from 'undici';
import {ApiError, fromTransportError, kindForStatus, parseRetryAfter} from './errors.js';

export type JsonRequest = {
	readonly pool: Pool;
	readonly url: URL;
	readonly method: 'GET' | 'POST';
	readonly headers: Record<string, string>;
	readonly body?: string;
	readonly signal?: AbortSignal;
	/** Overrides the pool's header timeout (long-polls wait longer). */
	readonly headersTimeoutMs?: number;
	/** What to call this request in error messages (never the URL with its query). */
	readonly label: string;
};

function serviceMessage(text: string, status: number): string {
	try {
		const body = JSON.parse(text) as {error?: unknown; message?: unknown};
		const message = body.error ?? body.message;
		if (typeof message === 'string' && message) {
			return message;
		}
	} catch {}

	return `HTTP ${status}`;
}

/** One HTTP exchange with JSON out and in. The body is always consumed; failures become ApiError. */
export async function requestJson<T>(options: JsonRequest): Promise<T> {
	const {pool, url, method, headers, body, signal, headersTimeoutMs, label} = options;
	let response: Dispatcher.ResponseData;
	let text: string;
	try {
		response = await pool.request({
			path: `${url.pathname}${url.search}`,
			method,
			headers,
			body,
			signal,
			...(headersTimeoutMs === undefined ? {} : {headersTimeout: headersTimeoutMs}),
		});
		text = await response.body.text();
	} catch (error) {
		throw fromTransportError(error, label);
	}

	const {statusCode} = response;
	if (statusCode < 200 || statusCode >= 300) {
		// Bodies of 401, 404 and 429 are not something to depend on: the status says it all.
		const message =
			statusCode === 401 || statusCode === 404 || statusCode === 429 ? `${label}: HTTP ${statusCode}` : `${label}: ${serviceMessage(text, statusCode)}`;
		throw new ApiError(kindForStatus(statusCode), message, {status: statusCode, retryAfterMs: parseRetryAfter(response.headers['retry-after'])});
	}

	try {
		return JSON.parse(text) as T;
	} catch (error) {
		throw new ApiError('server', `${label}: the answer was not JSON`, {status: statusCode, cause: error});
	}
}

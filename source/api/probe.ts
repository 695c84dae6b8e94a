import {request} from 'undici';
import {fromTransportError} from './errors.js';

/** Past this many bytes an answer is not read on (doctor's largest, v2's endpoint list of 2,000, is about 3 MB): its body reads as not JSON. */
export const maxProbeBytes = 16 * 1024 * 1024;

/** The body as text, or undefined past `limit` bytes (the rest is let go, not read). */
async function boundedText(body: AsyncIterable<Buffer> & {destroy: () => void}, limit: number): Promise<string | undefined> {
	const parts: Buffer[] = [];
	let length = 0;
	for await (const chunk of body) {
		length += chunk.byteLength;
		if (length > limit) {
			body.destroy();
			return undefined;
		}

		parts.push(chunk);
	}

	return Buffer.concat(parts).toString('utf8');
}

/** One read sent by `podtop doctor`: how it went, how long it took, and the service's clock. */
export type ProbeAnswer = {
	readonly status: number;
	readonly ms: number;
	/** The service's `Date` header minus the middle of the exchange on this host's clock (1 s resolution). */
	readonly clockOffsetMs: number | undefined;
	/** The answer's JSON, when it was JSON. */
	readonly body: unknown;
	/** Its headers (a header sent twice reads as the first). */
	readonly headers: {readonly get: (name: string) => string | undefined};
};

type Options = {
	readonly url: string;
	readonly apiKey: string;
	readonly method: 'GET' | 'POST';
	readonly body?: string;
	readonly timeoutMs: number;
	/** What to call it in errors (never the URL's query, never the key). */
	readonly label: string;
};

/**
Sends one read with the key in its Authorization header and says how it went, whatever the status
(a 401 is an answer here, not an error). A network failure or timeout throws an ApiError.
*/
export async function probe({url, apiKey, method, body, timeoutMs, label}: Options): Promise<ProbeAnswer> {
	const started = Date.now();
	const startedPrecise = performance.now();
	try {
		const response = await request(url, {
			method,
			body,
			headers: {authorization: `Bearer ${apiKey}`, 'user-agent': 'podtop doctor', ...(body === undefined ? {} : {'content-type': 'application/json'})},
			headersTimeout: timeoutMs,
			bodyTimeout: timeoutMs,
			signal: AbortSignal.timeout(timeoutMs),
		});
		const text = await boundedText(response.body, maxProbeBytes);
		const ms = performance.now() - startedPrecise;
		const date = Date.parse(String(response.headers.date ?? ''));
		let parsed: unknown;
		try {
			parsed = text === undefined ? undefined : JSON.parse(text);
		} catch {}

		// The header says the second; the middle of it is the best guess of the moment.
		const {headers} = response;
		return {
			status: response.statusCode,
			ms,
			clockOffsetMs: Number.isNaN(date) ? undefined : date + 500 - (started + ms / 2),
			body: parsed,
			headers: {
				get(name) {
					const value = headers[name.toLowerCase()];
					return Array.isArray(value) ? value[0] : value;
				},
			},
		};
	} catch (error) {
		throw fromTransportError(error, label);
	}
}

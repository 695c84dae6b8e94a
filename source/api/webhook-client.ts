import {request} from 'undici';
import {parseRetryAfter} from './errors.js';

/**
How one POST went: delivered; refused before it was taken (say again later: 429, 502, 503, 504, or
no connection made); or failed, and whether the receiver may have taken it anyway (a reset or a
timeout after the body left, a 500).
*/
export type WebhookOutcome =
	| {readonly outcome: 'delivered'}
	| {readonly outcome: 'again'; readonly afterMs?: number; readonly reason: string}
	| {readonly outcome: 'failed'; readonly mayHaveHappened: boolean; readonly reason: string};

/** Connection errors that mean nothing reached the receiver. */
const notSent = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** One JSON POST to a webhook (Slack's incoming webhooks take `{text}`), with explicit timeouts. */
export async function postWebhook(url: string, body: unknown, timeoutMs = 10_000): Promise<WebhookOutcome> {
	try {
		const response = await request(url, {
			method: 'POST',
			headers: {'content-type': 'application/json', 'user-agent': 'podtop'},
			body: JSON.stringify(body),
			headersTimeout: timeoutMs,
			bodyTimeout: timeoutMs,
			signal: AbortSignal.timeout(timeoutMs * 2),
		});
		await response.body.dump();
		const status = response.statusCode;
		if (status >= 200 && status < 300) {
			return {outcome: 'delivered'};
		}

		if (status === 429 || status === 502 || status === 503 || status === 504) {
			return {outcome: 'again', afterMs: parseRetryAfter(response.headers['retry-after']), reason: `HTTP ${status}`};
		}

		return {outcome: 'failed', mayHaveHappened: status >= 500, reason: `HTTP ${status}`};
	} catch (error) {
		const code = (error as {code?: string}).code ?? (error as {cause?: {code?: string}}).cause?.code ?? '';
		if (notSent.has(code)) {
			return {outcome: 'again', reason: code};
		}

		return {outcome: 'failed', mayHaveHappened: true, reason: code || (error instanceof Error ? error.message : 'unknown error')};
	}
}

import {type Dispatcher, errors, type Pool} from 'undici';

/** An answer read whole: its status, its headers (names in lower case) and its body as text. */
export type TextAnswer = {
	readonly statusCode: number;
	readonly headers: Readonly<Record<string, string | string[] | undefined>>;
	readonly text: string;
};

export type TextRequest = {
	readonly pool: Pool;
	/** The path and query. */
	readonly path: string;
	readonly method: 'GET' | 'POST';
	readonly headers: Record<string, string>;
	readonly body?: string;
	readonly signal?: AbortSignal;
	/** Overrides the pool's header timeout (long-polls wait longer). */
	readonly headersTimeoutMs?: number;
};

const decoder = new TextDecoder();

/**
One HTTP exchange read whole, straight on undici's dispatcher: what `pool.request` and
`body.text()` give, without a stream made, fed and ended for each answer (the dashboard's 600
`/health` answers a minute, of a few hundred bytes each). Aborted by `signal` as `pool.request` is
(its reason, or undici's RequestAbortedError); rejects with undici's own errors.
*/
export async function requestText({pool, path, method, headers, body, signal, headersTimeoutMs}: TextRequest): Promise<TextAnswer> {
	return new Promise((resolve, reject) => {
		let controller: Dispatcher.DispatchController | undefined;
		let reason: Error | undefined;
		let statusCode = 0;
		let answerHeaders: TextAnswer['headers'] = {};
		const chunks: Buffer[] = [];
		const onAbort = () => {
			reason = (signal?.reason as Error | undefined) ?? new errors.RequestAbortedError();
			controller?.abort(reason);
		};

		if (signal?.aborted) {
			onAbort();
		} else {
			signal?.addEventListener('abort', onAbort, {once: true});
		}

		const handler: Dispatcher.DispatchHandler = {
			onRequestStart(started) {
				if (reason) {
					started.abort(reason);
					return;
				}

				controller = started;
			},
			onResponseStart(_, status, headers) {
				// 1xx answers come before the answer.
				if (status >= 200) {
					statusCode = status;
					answerHeaders = headers;
				}
			},
			onResponseData(_, chunk) {
				chunks.push(chunk);
			},
			onResponseEnd() {
				signal?.removeEventListener('abort', onAbort);
				resolve({statusCode, headers: answerHeaders, text: decoder.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks))});
			},
			onResponseError(_, error) {
				signal?.removeEventListener('abort', onAbort);
				reject(error);
			},
		};
		pool.dispatch({path, method, headers, body, ...(headersTimeoutMs === undefined ? {} : {headersTimeout: headersTimeoutMs})}, handler);
	});
}

import type {Dispatcher} from 'undici';
import {ApiError, fromTransportError, kindForStatus} from './errors.js';
import {requestJson} from './json-request.js';
import type {Pools} from './pools.js';

/** The longest a chat may wait for its next piece, a cold start included (as `/runsync` holds at most). */
const chatTimeoutMs = 300_000;

export type ChatMessage = {readonly role: 'system' | 'user' | 'assistant'; readonly content: string};
export type ChatUsage = {readonly prompt_tokens?: number; readonly completion_tokens?: number};
export type ChatResult = {readonly id: string; readonly model: string; readonly text: string; readonly finishReason?: string; readonly usage?: ChatUsage};

type ChatChunk = {
	readonly id?: string;
	readonly choices?: ReadonlyArray<{readonly delta?: {readonly content?: unknown}; readonly finish_reason?: string | null}>;
	readonly usage?: ChatUsage | null;
};

export type CompatApi = {
	/** The models the endpoint's worker serves (`GET …/openai/v1/models`). */
	readonly models: (endpointId: string, options?: {signal?: AbortSignal}) => Promise<string[]>;
	/** A streamed chat completion: `onText` gets each piece as it arrives; resolves with the whole answer. */
	readonly chat: (
		endpointId: string,
		request: {readonly model: string; readonly messages: readonly ChatMessage[]; readonly maxTokens?: number},
		options: {readonly signal?: AbortSignal; readonly onText: (text: string) => void},
	) => Promise<ChatResult>;
};

/** Server-sent events: the `data:` payloads of each complete event in `buffer`, and what is left over. */
export function splitEvents(buffer: string): {events: string[]; rest: string} {
	const parts = buffer.replaceAll('\r\n', '\n').split('\n\n');
	const rest = parts.pop() ?? '';
	const events = parts.flatMap(part =>
		part
			.split('\n')
			.filter(line => line.startsWith('data:'))
			.map(line => line.slice(5).trimStart()),
	);
	return {events, rest};
}

/**
The OpenAI-compatible routes a language-model worker serves under `{baseUrl}/<endpoint_id>/openai/v1`
(the service's `/compat/*` family, with its own rate limit).
*/
export function createCompatApi({baseUrl, apiKey, pools}: {readonly baseUrl: string; readonly apiKey: string; readonly pools: Pools}): CompatApi {
	const base = baseUrl.replace(/\/+$/, '');
	const pool = pools.for(base);
	const headers = {authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'user-agent': 'podtop'};
	const url = (endpointId: string, path: string) => new URL(`${base}/${encodeURIComponent(endpointId)}/openai/v1/${path}`);
	return {
		async models(endpointId, options = {}) {
			const answer = await requestJson<{data?: Array<{id?: unknown}>}>({
				pool,
				url: url(endpointId, 'models'),
				method: 'GET',
				headers,
				signal: options.signal,
				label: `models ${endpointId}`,
			});
			return (answer.data ?? []).flatMap(model => (typeof model.id === 'string' ? [model.id] : []));
		},
		async chat(endpointId, request, {signal, onText}) {
			const label = `chat ${endpointId}`;
			const target = url(endpointId, 'chat/completions');
			let response: Dispatcher.ResponseData;
			try {
				response = await pool.request({
					path: target.pathname,
					method: 'POST',
					headers: {...headers, accept: 'text/event-stream'},
					body: JSON.stringify({
						model: request.model,
						messages: request.messages,
						stream: true,

						stream_options: {include_usage: true},
						...(request.maxTokens === undefined ? {} : {max_tokens: request.maxTokens}),
					}),
					signal,
					// A cold worker can take minutes to its first token; the answer then streams.
					headersTimeout: chatTimeoutMs,
					bodyTimeout: chatTimeoutMs,
				});
			} catch (error) {
				throw fromTransportError(error, label);
			}

			if (response.statusCode < 200 || response.statusCode >= 300) {
				const text = await response.body.text().catch(() => '');
				let message = `HTTP ${response.statusCode}`;
				try {
					const body = JSON.parse(text) as {message?: unknown; error?: unknown};
					const said = body.message ?? (typeof body.error === 'object' && body.error !== null ? (body.error as {message?: unknown}).message : body.error);
					message = typeof said === 'string' && said ? said : message;
				} catch {}

				throw new ApiError(kindForStatus(response.statusCode), `${label}: ${message}`, {status: response.statusCode});
			}

			let buffer = '';
			let text = '';
			let id = '';
			let finishReason: string | undefined;
			let usage: ChatUsage | undefined;
			try {
				for await (const piece of response.body) {
					const split = splitEvents(buffer + (piece as Buffer).toString('utf8'));
					buffer = split.rest;
					for (const data of split.events) {
						if (data === '[DONE]') {
							continue;
						}

						const chunk = JSON.parse(data) as ChatChunk;
						id ||= chunk.id ?? '';
						usage = chunk.usage ?? usage;
						const choice = chunk.choices?.[0];
						finishReason = choice?.finish_reason ?? finishReason;
						const content = choice?.delta?.content;
						if (typeof content === 'string' && content) {
							text += content;
							onText(content);
						}
					}
				}
			} catch (error) {
				throw error instanceof SyntaxError ? new ApiError('server', `${label}: an event was not JSON`, {cause: error}) : fromTransportError(error, label);
			}

			return {id, model: request.model, text, finishReason, usage};
		},
	};
}

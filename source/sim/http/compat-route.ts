import type {ServerResponse} from 'node:http';
import type {Endpoint} from '../endpoint.js';
import {isTerminal, type Job} from '../job.js';
import {policyDefaults} from '../job-request.js';
import {sendJson} from './respond.js';
import {waitForJob} from './wait-for-job.js';

/** The longest a chat request is held (real milliseconds), like `/runsync`'s longest wait. */
const holdMs = 300_000;

type Message = {readonly role: string; readonly content: unknown};
type ChatRequest = {readonly model?: string; readonly messages: readonly Message[]; readonly max_tokens?: number; readonly stream?: boolean};

/** An OpenAI-style error, as vLLM's server answers one. */
function sendOpenAiError(response: ServerResponse, status: number, message: string, type = 'invalid_request_error'): void {
	sendJson(response, status, {object: 'error', message, type, param: null, code: status}, {});
}

function parseChat(body: string): ChatRequest | string {
	let parsed: unknown;
	try {
		parsed = JSON.parse(body);
	} catch {
		return 'The request body is not valid JSON';
	}

	if (typeof parsed !== 'object' || parsed === null || !Array.isArray((parsed as {messages?: unknown}).messages)) {
		return '"messages" is required: a list of {"role", "content"}';
	}

	const request = parsed as ChatRequest;
	if (request.messages.length === 0 || request.messages.some(message => typeof message?.role !== 'string')) {
		return '"messages" must hold at least one {"role", "content"} with a string role';
	}

	if (request.max_tokens !== undefined && !(Number.isInteger(request.max_tokens) && request.max_tokens > 0)) {
		return '"max_tokens" must be a positive integer';
	}

	return request;
}

const contentText = (content: unknown): string =>
	typeof content === 'string'
		? content
		: Array.isArray(content)
			? content.map((part: unknown) => (typeof part === 'object' && part !== null && 'text' in part ? String(part.text) : '')).join('')
			: '';

type Yield = {readonly text?: unknown; readonly input_tokens?: number; readonly output_tokens?: number};
const yieldText = (value: unknown) => {
	const {text} = (value ?? {}) as Yield;
	return Array.isArray(text) ? text.join('') : typeof text === 'string' ? text : '';
};

/** Tokens counted so far, from the last yield (vLLM reports running totals). */
function usageOf(job: Job, fallbackPrompt: number) {
	const last = (job.yields.at(-1) ?? {}) as Yield;
	const prompt = last.input_tokens ?? fallbackPrompt;
	const completion = last.output_tokens ?? 0;
	return {prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion};
}

/** Until the job yields past `seen` chunks or ends. */
async function nextYield(job: Job, seen: number, signal: AbortSignal): Promise<void> {
	await waitForJob(job, () => job.yields.length > seen || isTerminal(job.status), holdMs, signal);
}

/**
`/v2/<endpoint_id>/openai/v1/...`: the OpenAI-compatible routes a language-model worker serves
(chat completions, streamed as server-sent events with `stream: true`, and the model list). A chat
request runs as a job of the endpoint, so it queues, scales and counts like any other.
*/
export async function serveCompat(
	endpoint: Endpoint,
	method: string,
	path: readonly string[],
	body: string,
	response: ServerResponse,
	signal: AbortSignal,
	now: () => number,
): Promise<void> {
	if (endpoint.spec.worker !== 'text-generation') {
		sendOpenAiError(response, 400, `Endpoint ${endpoint.id} does not serve the OpenAI-compatible API: its worker is not a language model`);
		return;
	}

	const route = `${method} ${path.join('/')}`;
	const model = endpoint.spec.name;
	const created = Math.floor(now() / 1000);
	if (route === 'GET v1/models') {
		sendJson(response, 200, {object: 'list', data: [{id: model, object: 'model', created, owned_by: 'runpod', root: model, parent: null}]});
		return;
	}

	if (route !== 'POST v1/chat/completions') {
		sendOpenAiError(
			response,
			404,
			`No OpenAI-compatible route ${method} /openai/${path.join('/')}; this worker serves POST v1/chat/completions and GET v1/models`,
			'not_found',
		);
		return;
	}

	const chat = parseChat(body);
	if (typeof chat === 'string') {
		sendOpenAiError(response, 400, chat);
		return;
	}

	const prompt = chat.messages.map(message => `${message.role}: ${contentText(message.content)}`).join('\n');
	const job = endpoint.submit(
		{
			input: {prompt, max_tokens: chat.max_tokens, openai_route: '/v1/chat/completions'},
			webhook: undefined,
			policy: {executionTimeout: endpoint.spec.executionTimeoutMs, ttl: policyDefaults.ttl, lowPriority: false},
		},
		true,
		60_000,
	);
	const onGone = () => {
		if (!isTerminal(job.status)) {
			endpoint.cancel(job);
		}
	};

	signal.addEventListener('abort', onGone, {once: true});
	try {
		const id = `chatcmpl-${job.id}`;
		const responseModel = chat.model ?? model;
		const promptTokens = Math.max(1, Math.ceil(prompt.length / 4));
		const finishReason = () => (chat.max_tokens !== undefined && usageOf(job, promptTokens).completion_tokens >= chat.max_tokens ? 'length' : 'stop');
		if (!chat.stream) {
			await waitForJob(job, () => isTerminal(job.status), holdMs, signal);
			if (job.status !== 'COMPLETED') {
				sendOpenAiError(response, 500, `The request ended ${job.status}${job.error ? `: ${job.error}` : ''}`, 'server_error');
				return;
			}

			sendJson(response, 200, {
				id,
				object: 'chat.completion',
				created,
				model: responseModel,
				choices: [
					{index: 0, message: {role: 'assistant', content: job.yields.map(value => yieldText(value)).join('')}, logprobs: null, finish_reason: finishReason()},
				],
				usage: usageOf(job, promptTokens),
			});
			return;
		}

		response.writeHead(200, {'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive'});
		const event = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) => {
			response.write(
				`data: ${JSON.stringify({id, object: 'chat.completion.chunk', created, model: responseModel, choices: [{index: 0, delta, logprobs: null, finish_reason: finish}], ...extra})}\n\n`,
			);
		};

		event({role: 'assistant', content: ''}, null);
		let sent = 0;
		while (!signal.aborted) {
			// eslint-disable-next-line no-await-in-loop -- each event waits for the worker's next yield, in order
			await nextYield(job, sent, signal);
			for (const value of job.yields.slice(sent)) {
				event({content: yieldText(value)}, null);
			}

			sent = job.yields.length;
			if (isTerminal(job.status)) {
				break;
			}
		}

		if (!signal.aborted) {
			event({}, job.status === 'COMPLETED' ? finishReason() : 'abort', {usage: usageOf(job, promptTokens)});
			response.end('data: [DONE]\n\n');
		}
	} finally {
		signal.removeEventListener('abort', onGone);
	}
}

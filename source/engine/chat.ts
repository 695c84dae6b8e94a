import type {ChatResult} from '../api/compat-api.js';
import {describeError} from '../api/errors.js';
import type {ScheduledApi} from '../poll/scheduled-api.js';
import type {StoreWrites} from '../store/create-store.js';

/** A chat message over `/compat/*`, shown as a tracked job under `chatId` while its answer streams in. */
export type ChatInput = {readonly message: string; readonly chatId: string; readonly maxTokens?: number};

/** Tokens so far: the service's count at the end, a rough one (4 characters a token) while it streams. */
const tokensOf = (text: string) => Math.ceil(text.length / 4);

/**
Sends one chat message over the OpenAI-compatible routes and shows its answer as it streams, as a
tracked job (`via: 'compat'`, never polled) with tokens per second. The model is the one the
worker serves. Sent once: a failure is said on the job, not retried.
*/
export async function sendChat(api: ScheduledApi, {endpointId}: {readonly endpointId: string}, input: ChatInput, writes: StoreWrites): Promise<ChatResult> {
	const key = writes.trackJob(endpointId, input.chatId, {via: 'compat'});
	const started = Date.now();
	writes.updateJob(key, {id: input.chatId, status: 'IN_QUEUE'}, started);
	let firstAt: number | undefined;
	let text = '';
	const metrics = (outputTokens: number, inputTokens?: number) => {
		const seconds = firstAt === undefined ? 0 : (Date.now() - firstAt) / 1000;
		return {
			avg_gen_throughput: seconds > 0.05 ? outputTokens / seconds : undefined,
			output_tokens: outputTokens,
			...(inputTokens === undefined ? {} : {input_tokens: inputTokens}),
		};
	};

	try {
		const [model = endpointId] = await api.compatModels(endpointId);
		const result = await api.chat(endpointId, {model, messages: [{role: 'user', content: input.message}], maxTokens: input.maxTokens}, piece => {
			firstAt ??= Date.now();
			text += piece;
			writes.appendStream(key, 'IN_PROGRESS', [{output: piece, metrics: metrics(tokensOf(text))}], Date.now());
		});
		const outputTokens = result.usage?.completion_tokens ?? tokensOf(text);
		writes.appendStream(key, 'IN_PROGRESS', [{metrics: metrics(outputTokens, result.usage?.prompt_tokens)}], Date.now());
		writes.updateJob(
			key,
			{id: input.chatId, status: 'COMPLETED', delayTime: (firstAt ?? Date.now()) - started, executionTime: Date.now() - (firstAt ?? started)},
			Date.now(),
		);
		return result;
	} catch (error) {
		writes.updateJob(key, {id: input.chatId, status: 'FAILED', error: describeError(error)}, Date.now());
		throw error;
	}
}

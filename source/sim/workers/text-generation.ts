import {runSteps, type Step, type WorkerHandler} from './handler.js';

const words = [
	'the',
	'model',
	'streams',
	'tokens',
	'across',
	'a',
	'fleet',
	'of',
	'GPUs',
	'while',
	'the',
	'scheduler',
	'keeps',
	'queues',
	'short',
	'and',
	'latency',
	'low',
	'every',
	'request',
	'is',
	'routed',
	'to',
	'a',
	'warm',
	'worker',
	'with',
	'cached',
	'weights',
	'so',
	'throughput',
	'stays',
	'high',
	'under',
	'load',
];

/**
A vLLM-style text-generation worker: streams tokens over seconds, each chunk shaped like the
service's (`{metrics, output: {input_tokens, output_tokens, text: [...]}}`).
*/
export const textGenerationWorker: WorkerHandler = (input, context) => {
	const {random} = context;
	const prompt = typeof input.prompt === 'string' ? input.prompt : '';
	const inputTokens = Math.max(1, Math.ceil(prompt.length / 4));
	const maxTokens = typeof input.max_tokens === 'number' && input.max_tokens > 0 ? Math.min(input.max_tokens, 4096) : random.int(48, 320);
	const tokensPerSecond = random.between(35, 110);
	const tokensPerChunk = random.int(4, 12);
	const firstTokenMs = random.int(80, 600);
	const done = {
		afterMs: 20,
		run() {
			context.complete();
		},
	};
	// In the simulated past only the outcome runs (see runSteps): the stream takes as long, unbuilt.
	if (context.clock.inPast) {
		return runSteps(context.clock, [{afterMs: firstTokenMs + (maxTokens / tokensPerSecond) * 1000, run() {}}, done]);
	}

	const steps: Step[] = [{afterMs: firstTokenMs, run() {}}];
	let produced = 0;
	let index = 0;
	while (produced < maxTokens) {
		const count = Math.min(tokensPerChunk, maxTokens - produced);
		produced += count;
		const outputTokens = produced;
		const streamIndex = index++;
		// The chunk's words and metrics are drawn when it is due: a job of the simulated past produces none.
		steps.push({
			afterMs: (count / tokensPerSecond) * 1000,
			run() {
				let text = '';
				for (let word = 0; word < count; word++) {
					text += `${words[random.int(0, words.length - 1)]} `;
				}

				const throughput = Math.round(tokensPerSecond * random.between(0.85, 1.1) * 10) / 10;
				const kvCache = Math.round(random.between(0.2, 0.95) * 1000) / 1000;
				context.yield(
					{input_tokens: inputTokens, output_tokens: outputTokens, text: [text]},
					{
						avg_gen_throughput: throughput,
						avg_prompt_throughput: streamIndex === 0 ? Math.round(inputTokens * 40) : 0,
						gpu_kv_cache_usage: kvCache,
						cpu_kv_cache_usage: 0,
						input_tokens: inputTokens,
						output_tokens: outputTokens,
						pending: 0,
						running: 1,
						scenario: 'stream',
						stream_index: streamIndex,
						swapped: 0,
					},
				);
			},
		});
	}

	steps.push(done);
	return runSteps(context.clock, steps);
};

import {toEndpointSpec, type EndpointSpec, type EndpointSpecInput} from './endpoint-spec.js';
import {createEndpointId} from './ids.js';
import type {Random} from './random.js';
import {fluxDev, fluxSchnell} from './workers/flux.js';

type Template = Omit<EndpointSpecInput, 'id'> & {readonly name: string};

/** The demo fleet: every worker behaviour, sized so a demo moves without flooding anything. */
const templates: readonly Template[] = [
	{
		name: 'llama-3-8b-instruct-vllm',
		gpuIds: 'ADA_24,AMPERE_24',
		locations: 'US',
		templateId: 'vllm-0-6-4',
		env: [
			{key: 'MODEL_NAME', value: 'meta-llama/Meta-Llama-3-8B-Instruct'},
			{key: 'MAX_MODEL_LEN', value: '8192'},
		],
		worker: 'text-generation',
		workersMin: 1,
		workersMax: 5,
		idleTimeout: 30,
		scalerType: 'QUEUE_DELAY',
		scalerValue: 4,
		returnAggregateStream: true,
		flashBoot: true,
		loadPerMinute: 14,
	},
	{
		name: 'sdxl-turbo',
		gpuIds: 'ADA_24',
		templateId: 'sdxl-turbo-a1',
		worker: 'flaky',
		workersMin: 0,
		workersMax: 4,
		idleTimeout: 10,
		scalerType: 'QUEUE_DELAY',
		scalerValue: 3,
		loadPerMinute: 18,
	},
	{
		name: 'video-upscaler',
		gpuIds: 'AMPERE_48,ADA_48_PRO',
		locations: 'US,RO',
		templateId: 'real-esrgan-video',
		worker: 'slow',
		workersMin: 0,
		workersMax: 2,
		idleTimeout: 60,
		executionTimeoutMs: 45_000,
		loadPerMinute: 2,
	},
	{
		name: 'embeddings-bge-m3',
		gpuIds: 'AMPERE_16',
		templateId: 'infinity-embed',
		env: [{key: 'MODEL_NAMES', value: 'BAAI/bge-m3'}],
		worker: 'echo',
		workersMin: 2,
		workersMax: 10,
		idleTimeout: 5,
		scalerType: 'REQUEST_COUNT',
		scalerValue: 3,
		flashBoot: true,
		loadPerMinute: 90,
	},
	{
		name: 'mistral-7b-batch',
		gpuIds: 'AMPERE_24',
		locations: 'CZ,FR,RO',
		templateId: 'vllm-0-6-4',
		worker: 'text-generation',
		workersMin: 0,
		workersMax: 3,
		idleTimeout: 20,
		returnAggregateStream: true,
		loadPerMinute: 5,
	},
	{
		name: 'whisper-large-v3',
		gpuIds: 'ADA_24,AMPERE_24',
		templateId: 'faster-whisper',
		worker: 'flaky',
		workersMin: 1,
		workersMax: 3,
		idleTimeout: 15,
		loadPerMinute: 8,
	},
	{name: 'smoke-test-echo', gpuIds: 'AMPERE_16', templateId: 'runpod-echo', worker: 'echo', workersMin: 0, workersMax: 1, idleTimeout: 5, loadPerMinute: 1},
	{
		name: 'qwen2-72b-awq',
		gpuIds: 'AMPERE_80,ADA_80_PRO',
		gpuCount: 2,
		locations: 'US',
		networkVolumeId: 'nv-qwen72b-weights',
		templateId: 'vllm-0-6-4',
		worker: 'text-generation',
		workersMin: 0,
		workersMax: 2,
		idleTimeout: 120,
		scalerValue: 10,
		returnAggregateStream: true,
		loadPerMinute: 3,
	},
];

/**
A broken release, so a new user meets the diagnosis at once: its 34B model does not fit the container disk, so
every container dies as it downloads (`No space left on device`) and restarts, while the service shows the
workers RUNNING or THROTTLED and none unhealthy, and its queue waits.
*/
const crashLooping: Template = {
	name: 'llava-next-34b',
	gpuIds: 'AMPERE_48,ADA_48_PRO',
	templateId: 'llava-next-34b',
	env: [{key: 'MODEL_NAME', value: 'llava-hf/llava-v1.6-34b-hf'}],
	worker: 'text-generation',
	workersMin: 1,
	workersMax: 2,
	idleTimeout: 30,
	loadPerMinute: 2,
	crashLoop: 'disk-full',
};

/** The curated demo set; larger fleets repeat the healthy templates after it. */
const curated: readonly Template[] = [...templates, crashLooping];

function templateAt(index: number): {template: Template; round: number} {
	if (index < curated.length) {
		return {template: curated[index]!, round: 0};
	}

	const healthy = index - curated.length + templates.length;
	return {template: templates[healthy % templates.length]!, round: Math.floor(healthy / templates.length)};
}

/** The public image models, callable by their slug. */
export const publicModelEndpoints: readonly EndpointSpec[] = [
	toEndpointSpec({
		id: fluxDev.slug,
		name: fluxDev.slug,
		worker: 'flux-dev',
		workersMin: 1,
		workersMax: 20,
		idleTimeout: 60,
		flashBoot: true,
		public: true,
		loadPerMinute: 4,
	}),
	toEndpointSpec({
		id: fluxSchnell.slug,
		name: fluxSchnell.slug,
		worker: 'flux-schnell',
		workersMin: 1,
		workersMax: 20,
		idleTimeout: 60,
		flashBoot: true,
		public: true,
		loadPerMinute: 6,
	}),
];

/**
The account's endpoints for a seed: the curated demo set first (9), then (for `count` above it) more
endpoints cycling through the healthy behaviours, for benchmarks of large fleets.
*/
export function createDemoEndpoints(random: Random, count = curated.length): EndpointSpec[] {
	return Array.from({length: count}, (_, index) => {
		const {template, round} = templateAt(index);
		return toEndpointSpec({
			...template,
			id: createEndpointId(random),
			name: round === 0 ? template.name : `${template.name}-${round + 1}`,
			createdAt: new Date(Date.UTC(2026, 0, 5 + (index % 300), 9, index % 60)).toISOString(),
		});
	});
}

import {createEndpointId} from '../ids.js';
import {dataCenters, findGpu} from '../market/gpu-catalogue.js';
import type {Market} from '../market/market.js';
import type {Random} from '../random.js';
import type {LoadPattern} from './load-patterns.js';
import type {PodCloud, SimPod} from './pod.js';

type Template = {
	readonly name: string;
	readonly imageName: string;
	readonly gpuTypeId: string;
	readonly gpuCount: number;
	readonly pattern: LoadPattern;
	readonly cloudType: PodCloud;
	readonly running: boolean;
	/** Spot pods bid this multiple of the spot price at start. */
	readonly bidFactor?: number;
	readonly ports: string | null;
};

/** Twelve pods with believable jobs: training near 95 %, inference in bursts, notebooks, idle boxes, spot pods, stopped ones. */
const templates: readonly Template[] = [
	{
		name: 'llama-3-70b-finetune',
		imageName: 'axolotlai/axolotl:main-py3.11-cu124',
		gpuTypeId: 'NVIDIA H100 80GB HBM3',
		gpuCount: 8,
		pattern: 'training',
		cloudType: 'SECURE',
		running: true,
		ports: '22/tcp',
	},
	{
		name: 'sdxl-lora-trainer',
		imageName: 'runpod/kohya:v24.1.7-train',
		gpuTypeId: 'NVIDIA A100-SXM4-80GB',
		gpuCount: 2,
		pattern: 'training',
		cloudType: 'SECURE',
		running: true,
		ports: '22/tcp,8888/http',
	},
	{
		name: 'vllm-llama-3-8b',
		imageName: 'vllm/vllm-openai:v0.6.4',
		gpuTypeId: 'NVIDIA L40S',
		gpuCount: 1,
		pattern: 'inference',
		cloudType: 'SECURE',
		running: true,
		ports: '8000/http',
	},
	{
		name: 'tgi-mixtral-8x7b',
		imageName: 'ghcr.io/huggingface/text-generation-inference:2.4',
		gpuTypeId: 'NVIDIA A100 80GB PCIe',
		gpuCount: 2,
		pattern: 'inference',
		cloudType: 'COMMUNITY',
		running: true,
		ports: '80/http',
	},
	{
		name: 'jupyter-research',
		imageName: 'runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04',
		gpuTypeId: 'NVIDIA GeForce RTX 4090',
		gpuCount: 1,
		pattern: 'notebook',
		cloudType: 'COMMUNITY',
		running: true,
		ports: '8888/http,22/tcp',
	},
	{
		name: 'comfyui-studio',
		imageName: 'runpod/comfyui:latest',
		gpuTypeId: 'NVIDIA GeForce RTX 4090',
		gpuCount: 1,
		pattern: 'notebook',
		cloudType: 'SECURE',
		running: true,
		ports: '8188/http',
	},
	{
		name: 'whisper-batch',
		imageName: 'onerahmet/openai-whisper-asr-webservice:latest-gpu',
		gpuTypeId: 'NVIDIA RTX A5000',
		gpuCount: 1,
		pattern: 'inference',
		cloudType: 'COMMUNITY',
		running: true,
		ports: '9000/http',
	},
	{
		name: 'idle-dev-box',
		imageName: 'runpod/base:0.6.2-cuda12.4.1',
		gpuTypeId: 'NVIDIA RTX A6000',
		gpuCount: 1,
		pattern: 'idle',
		cloudType: 'COMMUNITY',
		running: true,
		ports: '22/tcp',
	},
	{
		name: 'spot-render-farm',
		imageName: 'blender/blender-cuda:4.2',
		gpuTypeId: 'NVIDIA GeForce RTX 3090',
		gpuCount: 4,
		pattern: 'training',
		cloudType: 'COMMUNITY',
		running: true,
		bidFactor: 1.3,
		ports: null,
	},
	{
		name: 'spot-eval-runner',
		imageName: 'ghcr.io/eleutherai/lm-eval-harness:latest',
		gpuTypeId: 'NVIDIA L4',
		gpuCount: 1,
		pattern: 'inference',
		cloudType: 'SECURE',
		running: true,
		bidFactor: 1.05,
		ports: null,
	},
	{
		name: 'archived-experiment',
		imageName: 'runpod/pytorch:2.1.0-py3.10-cuda11.8.0-devel-ubuntu22.04',
		gpuTypeId: 'NVIDIA A40',
		gpuCount: 1,
		pattern: 'notebook',
		cloudType: 'COMMUNITY',
		running: false,
		ports: '8888/http',
	},
	{
		name: 'h200-benchmark',
		imageName: 'nvcr.io/nvidia/pytorch:24.10-py3',
		gpuTypeId: 'NVIDIA H200',
		gpuCount: 1,
		pattern: 'training',
		cloudType: 'SECURE',
		running: false,
		ports: '22/tcp',
	},
];

const round = (value: number) => Math.round(value * 1000) / 1000;

/** The demo fleet's pods for a seed; above twelve, the same kinds again with a numbered name. */
export function demoPods(count: number, {random, market, now}: {readonly random: Random; readonly market: Market; readonly now: number}): SimPod[] {
	return Array.from({length: count}, (_, index) => {
		const template = templates[index % templates.length]!;
		const generation = Math.floor(index / templates.length);
		const model = findGpu(template.gpuTypeId)!;
		const spot = template.bidFactor !== undefined;
		const bidPerGpu = spot ? round(market.spotPrice(model, template.cloudType)! * template.bidFactor) : undefined;
		const perGpu = bidPerGpu ?? market.onDemandPrice(model, template.cloudType)!;
		const id = createEndpointId(random);
		const startedAt = template.running ? now - random.int(600, 9 * 24 * 3600) * 1000 : undefined;
		return {
			id,
			name: generation === 0 ? template.name : `${template.name}-${generation + 1}`,
			imageName: template.imageName,
			gpuTypeId: model.id,
			gpuCount: template.gpuCount,
			cloudType: template.cloudType,
			interruptible: spot,
			bidPerGpu,
			costPerHr: round(perGpu * template.gpuCount),
			desiredStatus: template.running ? 'RUNNING' : 'EXITED',
			startedAt,
			lastStatusChange: `${template.running ? 'Rented by User' : 'Exited by user'}: ${new Date(startedAt ?? now - 86_400_000).toString()}`,
			env: ['JUPYTER_PASSWORD=••••••', 'PUBLIC_KEY=ssh-ed25519 AAAA…'],
			ports: template.ports,
			volumeInGb: 100 * template.gpuCount,
			containerDiskInGb: 50,
			vcpuCount: 8 * template.gpuCount,
			memoryInGb: 62 * template.gpuCount,
			volumeMountPath: '/workspace',
			dockerArgs: '',
			templateId: null,
			networkVolumeId: null,
			dataCenterId: random.pick(dataCenters).id,
			machineId: random.alphanumeric(12),
			podHostId: `${id}-${random.int(10_000_000, 99_999_999)}`,
			pattern: template.pattern,
			seed: random.int(1, 2 ** 30),
			version: 0,
		};
	});
}

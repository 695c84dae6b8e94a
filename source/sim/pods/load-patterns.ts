import {smoothNoise} from '../noise.js';

export const loadPatterns = ['training', 'inference', 'notebook', 'idle'] as const;
export type LoadPattern = (typeof loadPatterns)[number];

export type GpuLoad = {readonly gpuUtilPercent: number; readonly memoryUtilPercent: number};
export type ContainerLoad = {readonly cpuPercent: number; readonly memoryPercent: number};

const percent = (value: number) => Math.max(0, Math.min(100, Math.round(value)));
const second = 1000;

/**
Believable utilisation as a pure function of time: a training run pinned near 95 %, an inference
server in bursts, a notebook mostly quiet with spikes, an idle pod at 0 %.
*/
export function gpuLoad(pattern: LoadPattern, seed: number, now: number): GpuLoad {
	const jitter = smoothNoise(seed, now, 4 * second);
	switch (pattern) {
		case 'training': {
			return {gpuUtilPercent: percent(91 + 8 * jitter), memoryUtilPercent: percent(88 + 6 * smoothNoise(seed + 1, now, 60 * second))};
		}

		case 'inference': {
			const burst = smoothNoise(seed + 2, now, 25 * second);
			const busy = burst > 0.5 ? 55 + 45 * ((burst - 0.5) * 2) : 3 * burst;
			return {gpuUtilPercent: percent(busy * (0.85 + 0.15 * jitter)), memoryUtilPercent: percent(62 + 4 * jitter)};
		}

		case 'notebook': {
			const spike = smoothNoise(seed + 3, now, 45 * second);
			return {gpuUtilPercent: percent(spike > 0.8 ? 70 * jitter : 8 * jitter), memoryUtilPercent: percent(20 + 15 * spike)};
		}

		default: {
			return {gpuUtilPercent: 0, memoryUtilPercent: percent(jitter)};
		}
	}
}

export function containerLoad(pattern: LoadPattern, seed: number, now: number): ContainerLoad {
	const jitter = smoothNoise(seed + 5, now, 6 * second);
	switch (pattern) {
		case 'training': {
			return {cpuPercent: percent(35 + 20 * jitter), memoryPercent: percent(52 + 8 * jitter)};
		}

		case 'inference': {
			return {cpuPercent: percent(8 + 30 * smoothNoise(seed + 2, now, 25 * second) * jitter), memoryPercent: percent(38 + 4 * jitter)};
		}

		case 'notebook': {
			return {cpuPercent: percent(2 + 12 * jitter), memoryPercent: percent(18 + 6 * jitter)};
		}

		default: {
			return {cpuPercent: percent(jitter * 2), memoryPercent: percent(6 + jitter)};
		}
	}
}

/** Guesses what a pod does from its image, for pods deployed through the API. */
export function patternForImage(imageName: string): LoadPattern {
	if (/vllm|tgi|inference|serve|triton|ollama/i.test(imageName)) {
		return 'inference';
	}

	if (/train|axolotl|trl|deepspeed|unsloth|lightning/i.test(imageName)) {
		return 'training';
	}

	return 'notebook';
}

import type {PodRecord} from '../api/graphql-types.js';

/** Mean GPU utilisation of a running pod; undefined when it has no runtime. */
export function meanGpuUtil(record: PodRecord): number | undefined {
	const gpus = record.runtime?.gpus ?? [];
	if (gpus.length === 0) {
		return undefined;
	}

	return Math.round(gpus.reduce((sum, gpu) => sum + (gpu.gpuUtilPercent ?? 0), 0) / gpus.length);
}

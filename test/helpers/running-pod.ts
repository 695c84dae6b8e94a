import type {PodRecord} from '../../source/model/pod.js';

/** A running one-GPU pod as the GraphQL list gives it, its GPU `util` % busy: what the recorder tests feed a store. */
export const runningPod = (id: string, util: number): PodRecord => ({
	id,
	name: `pod ${id}`,
	imageName: 'runpod/pytorch',
	desiredStatus: 'RUNNING',
	costPerHr: 1.5,
	gpuCount: 1,
	runtime: {gpus: [{gpuUtilPercent: util, memoryUtilPercent: 50}], container: {cpuPercent: 30, memoryPercent: 40}},
});

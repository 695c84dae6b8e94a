import {cpuPodPrices, findGpu} from '../market/gpu-catalogue.js';
import type {SimPod} from '../pods/pod.js';
import type {SimWorker} from '../sim-worker.js';
import type {Rates} from './components.js';
import {billingPrices, networkVolumeGb, serverlessPoolPrices} from './prices.js';

/** A pod's rates: running, its GPUs (a CPU pod: vCPU and memory) and disks; stopped, its volume; terminated, nothing. */
export function podRates(pod: SimPod): Rates {
	if (pod.desiredStatus === 'TERMINATED') {
		return {};
	}

	if (pod.desiredStatus !== 'RUNNING') {
		return {podDisk: pod.volumeInGb * billingPrices.stoppedVolumePerGbHour};
	}

	const disks = pod.containerDiskInGb + pod.volumeInGb;
	const podDisk = disks * billingPrices.runningDiskPerGbHour;
	// A CPU pod's $/hr already holds its disks (at the same price per GB): its compute is the rest.
	return pod.gpuCount > 0 ? {podGpu: pod.costPerHr, podDisk} : {podCpu: Math.max(0, pod.costPerHr - disks * cpuPodPrices.perGbDisk), podDisk};
}

/** States in which a worker holds a GPU (a throttled one waits for one). */
const holdsGpu = new Set(['initializing', 'idle', 'running', 'unhealthy', 'crashing']);

/** A serverless worker's rates: its GPUs at its pool's flex price and the platform fee, while it holds them. */
export function workerRates(worker: SimWorker, gpuCount: number, removed = false): Rates {
	const pool = worker.gpuTypeId === undefined ? undefined : findGpu(worker.gpuTypeId)?.pool;
	const price = pool === undefined ? undefined : serverlessPoolPrices[pool];
	if (removed || price === undefined || !holdsGpu.has(worker.state)) {
		return {};
	}

	const serverlessGpu = price * gpuCount;
	return {serverlessGpu, serverlessFee: serverlessGpu * billingPrices.serverlessFeeShare};
}

/** A network volume's storage: standard, at the size the simulator bills volumes at. */
export const volumeRates = (): Rates => ({storageStandard: networkVolumeGb * billingPrices.networkVolumeStandardPerGbHour});

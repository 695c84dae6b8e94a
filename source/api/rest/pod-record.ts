import {BlockList, isIP} from 'node:net';
import type {PodAction, PodRecord, PodRuntime, PodSummary} from '../../model/pod.js';
import type {components} from './v2-schema.js';
import type {ListPrice} from './gpu-names.js';

export type V2Pod = components['schemas']['Pod'];
type V2Runtime = components['schemas']['PodRuntime'];

/** Addresses no one outside the pod's network reaches: private, shared (CGNAT), loopback, link-local. */
const unreachable = new BlockList();
for (const [network, prefix] of [
	['10.0.0.0', 8],
	['172.16.0.0', 12],
	['192.168.0.0', 16],
	['100.64.0.0', 10],
	['127.0.0.0', 8],
	['169.254.0.0', 16],
] as const) {
	unreachable.addSubnet(network, prefix, 'ipv4');
}

for (const [network, prefix] of [
	['fc00::', 7],
	['fe80::', 10],
	['::1', 128],
] as const) {
	unreachable.addSubnet(network, prefix, 'ipv6');
}

/** Whether a port's address is public (v2 says only the address; GraphQL said `isIpPublic`). */
export function isPublicAddress(ip: string | null | undefined): boolean {
	const family = ip ? isIP(ip) : 0;
	return family !== 0 && !unreachable.check(ip!, family === 4 ? 'ipv4' : 'ipv6');
}

const podActions = new Set<string>(['start', 'stop', 'restart', 'terminate']);

function runtimeOf(runtime: V2Runtime | null | undefined): PodRuntime | null {
	if (!runtime) {
		return null;
	}

	return {
		uptimeInSeconds: runtime.uptime ?? null,
		gpus: runtime.gpus?.map(gpu => ({gpuUtilPercent: gpu.util ?? null, memoryUtilPercent: gpu.memoryUtil ?? null})) ?? null,
		container: runtime.cpu || runtime.memory ? {cpuPercent: runtime.cpu?.util ?? null, memoryPercent: runtime.memory?.util ?? null} : null,
		ports:
			runtime.ports?.map(port => ({
				ip: port.ip ?? null,
				isIpPublic: isPublicAddress(port.ip),
				privatePort: port.private ?? null,
				publicPort: port.public ?? null,
				type: port.type ?? null,
			})) ?? null,
	};
}

/** v2's `env` object as podtop's `KEY=value` strings. */
const envStrings = (env: Readonly<Record<string, string>> | undefined) => (env ? Object.entries(env).map(([key, value]) => `${key}=${value}`) : null);

const cents = (value: number) => Math.round(value * 100) / 100;

/**
What the pod costs an hour while it runs. v2 says `cost` 0 once a pod is EXITED (its volume still
bills, which podtop works out): its running price is then its GPU type's list price on its cloud
times its GPUs, as the catalog says now, so a stopped pod shows what resuming costs, never $0.
*/
function runningPrice(pod: V2Pod, prices: ReadonlyMap<string, ListPrice> | undefined): number | null {
	if (pod.status !== 'EXITED' || pod.cost > 0) {
		return pod.cost;
	}

	return pod.gpu ? listRunningPrice(prices?.get(pod.gpu.id), pod.cloud, pod.gpu.count ?? 1) : null;
}

/** A pod's price an hour at its type's list price (null when the catalog has none for its cloud). */
export function listRunningPrice(list: ListPrice | undefined, cloud: string | null | undefined, gpuCount: number): number | null {
	const perGpu = cloud === 'COMMUNITY' ? list?.community : list?.secure;
	return perGpu === undefined ? null : cents(perGpu * gpuCount);
}

/**
A v2 pod as podtop's record. `status` (PROVISIONING, STARTING, RUNNING, EXITED, ERROR, TERMINATED) is the
record's `desiredStatus`; `cost` is `costPerHr` (for an EXITED pod, the list price it would run at); the GPU's display name
comes from the catalog (`gpuNames`), the id standing in when the catalog does not know it. v2 does not
say whether a pod is spot, its machine, nor a GPU pod's vCPUs and memory: those stay undefined.
*/
export function podRecord(pod: V2Pod, gpuNames: ReadonlyMap<string, string>, prices?: ReadonlyMap<string, ListPrice>): PodRecord {
	const persistent = pod.mounts?.persistent;
	const network = pod.mounts?.network?.[0];
	const gpuId = pod.gpu?.id;
	return {
		id: pod.id,
		name: pod.name,
		imageName: pod.image ?? null,
		desiredStatus: pod.status,
		costPerHr: runningPrice(pod, prices),
		gpuCount: pod.gpu ? (pod.gpu.count ?? 1) : 0,
		...(pod.cpu ? {vcpuCount: pod.cpu.vcpuCount, memoryInGb: pod.cpu.memory} : {}),
		machine: {gpuDisplayName: gpuId === undefined ? null : (gpuNames.get(gpuId) ?? gpuId), location: pod.dataCenterId ?? null},
		runtime: runtimeOf(pod.runtime),
		env: envStrings(pod.env),
		containerDiskInGb: pod.disk ?? null,
		volumeInGb: persistent?.size ?? 0,
		volumeMountPath: persistent?.path ?? network?.path ?? null,
		cloudType: pod.cloud,
		dataCenterId: pod.dataCenterId ?? null,
		cudaVersion: pod.cudaVersion ?? null,
		actions: pod.actions.filter((action): action is PodAction => podActions.has(action)),
	};
}

/** The summary's subset of a record (the Pods pane hidden). */
export function podSummary(record: PodRecord): PodSummary {
	const {id, name, desiredStatus, costPerHr, volumeInGb, gpuCount, podType, runtime} = record;
	return {id, name, desiredStatus, costPerHr, volumeInGb, gpuCount, podType, runtime: runtime ? {gpus: runtime.gpus} : null};
}

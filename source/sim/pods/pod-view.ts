import type {SimClock} from '../clock.js';
import {seedOf} from '../noise.js';
import {findGpu} from '../market/gpu-catalogue.js';
import {containerLoad, gpuLoad} from './load-patterns.js';
import type {SimPod} from './pod.js';

type PortView = {ip: string; isIpPublic: boolean; privatePort: number; publicPort: number; type: string};

export function portsOf(pod: SimPod): PortView[] {
	if (!pod.ports) {
		return [];
	}

	return pod.ports
		.split(',')
		.filter(Boolean)
		.map((entry, index) => {
			const [port = '0', type = 'tcp'] = entry.split('/');
			const privatePort = Number(port);
			const isIpPublic = type !== 'http';
			const octet = (pod.seed >>> (index * 3)) % 250;
			return {
				ip: isIpPublic ? `194.68.245.${octet + 2}` : `100.65.${(pod.seed >>> 8) % 250}.${octet + 2}`,
				isIpPublic,
				privatePort,
				publicPort: isIpPublic ? 10_000 + ((pod.seed + index) % 50_000) : privatePort,
				type,
			};
		});
}

const gpuUuid = (pod: SimPod, index: number) => {
	const hex = seedOf(`${pod.id}:${index}`).toString(16).padStart(8, '0');
	return `GPU-${hex}-${hex.slice(0, 4)}-${hex.slice(4)}-${pod.machineId.slice(0, 4)}`;
};

/**
A pod as the GraphQL API shows it. Costly fields are functions, so graphql-js computes them only
when a document selects them: `runtime` is null unless the pod is running.
*/
export function podView(pod: SimPod, clock: SimClock): Record<string, unknown> {
	const model = findGpu(pod.gpuTypeId);
	const running = pod.desiredStatus === 'RUNNING' && pod.startedAt !== undefined;
	const uptimeSeconds = () => (running ? Math.max(0, Math.floor((clock.now() - pod.startedAt!) / 1000)) : 0);
	return {
		id: pod.id,
		name: pod.name,
		imageName: pod.imageName,
		env: pod.env,
		machineId: pod.machineId,
		machine: {
			podHostId: pod.podHostId,
			gpuDisplayName: model?.displayName ?? pod.gpuTypeId,
			gpuTypeId: pod.gpuTypeId,
			location: pod.dataCenterId,
			dataCenterId: pod.dataCenterId,
			gpuAvailable: model ? model.maxGpuCount - pod.gpuCount : 0,
			maintenanceStart: null,
			maintenanceEnd: null,
			maintenanceNote: null,
		},
		desiredStatus: pod.desiredStatus,
		lastStatusChange: pod.lastStatusChange,
		costPerHr: pod.costPerHr,
		adjustedCostPerHr: pod.costPerHr,
		gpuCount: pod.gpuCount,
		vcpuCount: pod.vcpuCount,
		memoryInGb: pod.memoryInGb,
		containerDiskInGb: pod.containerDiskInGb,
		volumeInGb: pod.volumeInGb,
		volumeMountPath: pod.volumeMountPath,
		dockerArgs: pod.dockerArgs,
		dockerId: null,
		podType: pod.interruptible ? 'INTERRUPTABLE' : 'RESERVED',
		interruptible: pod.interruptible,
		bidPerGpu: pod.bidPerGpu ?? null,
		port: portsOf(pod)[0]?.privatePort ?? null,
		ports: pod.ports,
		templateId: pod.templateId,
		networkVolumeId: pod.networkVolumeId,
		version: pod.version,
		uptimeSeconds,
		runtime: () =>
			running
				? {
						uptimeInSeconds: uptimeSeconds(),
						ports: portsOf(pod),
						gpus: Array.from({length: pod.gpuCount}, (_, index) => ({id: gpuUuid(pod, index), ...gpuLoad(pod.pattern, pod.seed + index, clock.elapsed())})),
						container: containerLoad(pod.pattern, pod.seed, clock.elapsed()),
					}
				: null,
	};
}

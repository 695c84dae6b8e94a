import type {SimClock} from '../clock.js';
import {findGpu, minimumCuda} from '../market/gpu-catalogue.js';
import {containerLoad, gpuLoad} from '../pods/load-patterns.js';
import type {SimPod} from '../pods/pod.js';
import {portsOf} from '../pods/pod-view.js';
import {podActions, podStatus} from './pod-status.js';

const cudaVersions = ['11.8', '12.1', '12.4', '12.6', '12.8'] as const;
const versionNumber = (version: string) => Number(version.split('.')[0]) * 100 + Number(version.split('.')[1]);

/** The CUDA version the pod's host reports: one its GPU runs, fixed per pod; null for AMD and CPU pods. */
function hostCuda(pod: SimPod): string | null {
	const model = findGpu(pod.gpuTypeId);
	if (model?.manufacturer !== 'Nvidia' || pod.gpuCount === 0) {
		return null;
	}

	const runnable = cudaVersions.filter(version => versionNumber(version) >= versionNumber(minimumCuda(model)));
	return runnable[pod.seed % runnable.length] ?? null;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** `KEY=value` strings as the v2 `env` object. */
function envObject(env: readonly string[]): Record<string, string> {
	return Object.fromEntries(env.map(entry => [entry.slice(0, Math.max(0, entry.indexOf('='))), entry.slice(entry.indexOf('=') + 1)]));
}

function mounts(pod: SimPod): Record<string, unknown> {
	if (pod.networkVolumeId) {
		return {network: [{volumeId: pod.networkVolumeId, path: pod.volumeMountPath}]};
	}

	return pod.volumeInGb > 0 ? {persistent: {size: Math.max(10, pod.volumeInGb), path: pod.volumeMountPath}} : {};
}

/** A pod as REST v2 shows it, read from the same fleet GraphQL reads. */
export function podResource(pod: SimPod, clock: SimClock): Record<string, unknown> {
	const now = clock.now();
	const status = podStatus(pod, now);
	const running = status === 'RUNNING';
	const ports = portsOf(pod);
	const sshPort = running ? ports.find(port => port.privatePort === 22 && port.type === 'tcp' && port.isIpPublic) : undefined;
	const proxyUser = `${pod.id}-${pod.podHostId.split('-').pop() ?? '0'}`;
	const created = pod.createdAt ?? (pod.startedAt ?? now) - 86_400_000 - (pod.seed % 86_400) * 1000;
	return {
		id: pod.id,
		name: pod.name,
		status,
		actions: podActions(pod, status),
		image: pod.imageName,
		args: pod.dockerArgs,
		disk: pod.containerDiskInGb,
		mounts: mounts(pod),
		ports: (pod.ports ?? '').split(',').filter(Boolean),
		env: envObject(pod.env),
		registry: null,
		...(pod.gpuCount > 0 ? {gpu: {id: pod.gpuTypeId, count: pod.gpuCount}} : {cpu: {id: 'cpu3c', vcpuCount: pod.vcpuCount, memory: pod.memoryInGb}}),
		cloud: pod.cloudType,
		dataCenterId: pod.dataCenterId,
		cudaVersion: hostCuda(pod),
		ssh: {
			proxy: {host: 'ssh.runpod.io', port: 22, username: proxyUser, command: `ssh ${proxyUser}@ssh.runpod.io`},
			direct: sshPort ? {host: sshPort.ip, port: sshPort.publicPort, username: 'root', command: `ssh root@${sshPort.ip} -p ${sshPort.publicPort}`} : null,
		},
		template: null,
		cost: status === 'EXITED' || status === 'TERMINATED' ? 0 : pod.costPerHr,
		locked: pod.locked ?? false,
		globalNetworking: {enabled: false},
		runtime: running
			? {
					uptime: Math.max(0, Math.floor((now - pod.startedAt!) / 1000)),
					gpus: Array.from({length: pod.gpuCount}, (_, index) => {
						const load = gpuLoad(pod.pattern, pod.seed + index, clock.elapsed());
						return {util: load.gpuUtilPercent, memoryUtil: load.memoryUtilPercent};
					}),
					cpu: {util: containerLoad(pod.pattern, pod.seed, clock.elapsed()).cpuPercent},
					memory: {util: containerLoad(pod.pattern, pod.seed, clock.elapsed()).memoryPercent},
					ports: ports.map(port => ({private: port.privatePort, public: port.publicPort, type: port.type, ip: port.ip})),
				}
			: null,
		createdAt: iso(created),
		startedAt: pod.startedAt === undefined ? null : iso(pod.startedAt),
	};
}

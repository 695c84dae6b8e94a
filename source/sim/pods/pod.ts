import type {LoadPattern} from './load-patterns.js';

export type PodStatus = 'RUNNING' | 'EXITED' | 'TERMINATED';
export type PodCloud = 'SECURE' | 'COMMUNITY';

export type SimPod = {
	readonly id: string;
	name: string;
	imageName: string;
	readonly gpuTypeId: string;
	gpuCount: number;
	readonly cloudType: PodCloud;
	/** Spot pod: interrupted when the spot price rises above its bid. */
	readonly interruptible: boolean;
	bidPerGpu: number | undefined;
	/** $/hr while running. */
	costPerHr: number;
	desiredStatus: PodStatus;
	/** Simulated epoch ms the pod last started; undefined while stopped. */
	startedAt: number | undefined;
	lastStatusChange: string;
	/** `KEY=value` strings, as the service reads them back. */
	env: readonly string[];
	/** e.g. "8888/http,22/tcp"; null when none. */
	ports: string | null;
	readonly volumeInGb: number;
	containerDiskInGb: number;
	readonly vcpuCount: number;
	readonly memoryInGb: number;
	readonly volumeMountPath: string;
	dockerArgs: string;
	readonly templateId: string | null;
	readonly networkVolumeId: string | null;
	readonly dataCenterId: string;
	readonly machineId: string;
	readonly podHostId: string;
	readonly pattern: LoadPattern;
	/** Seeds the pod's load curves. */
	readonly seed: number;
	version: number;
	/** Simulated epoch ms it was created, for pods created while the simulator runs (REST v2 shows it; the demo fleet's is derived). */
	createdAt?: number;
	/** Locked pods cannot be stopped or restarted (REST v2 `locked`). */
	locked?: boolean;
};

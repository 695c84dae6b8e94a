import type {EnvironmentVariable} from './endpoint.js';

/** What a pod's container reports while it runs. */
export type PodRuntime = {
	readonly uptimeInSeconds?: number | null;
	readonly gpus?: ReadonlyArray<{readonly id?: string | null; readonly gpuUtilPercent?: number | null; readonly memoryUtilPercent?: number | null}> | null;
	readonly container?: {readonly cpuPercent?: number | null; readonly memoryPercent?: number | null} | null;
	readonly ports?: ReadonlyArray<{
		readonly ip?: string | null;
		readonly isIpPublic?: boolean | null;
		readonly privatePort?: number | null;
		readonly publicPort?: number | null;
		readonly type?: string | null;
	}> | null;
};

/** A state change the service allows a pod now (REST v2 says which, per status). */
export type PodAction = 'start' | 'stop' | 'restart' | 'terminate';

/**
podtop's own record of a pod. Field names are the seed API's (GraphQL's), kept because recorded
history stores records by them; REST v2's facts that GraphQL lacks are the optional fields at the end.
*/
export type PodRecord = {
	readonly id: string;
	readonly name?: string | null;
	readonly imageName?: string | null;
	/** RUNNING, EXITED or TERMINATED; over REST v2 also PROVISIONING, STARTING and ERROR. */
	readonly desiredStatus?: string | null;
	readonly costPerHr?: number | null;
	readonly gpuCount?: number | null;
	readonly vcpuCount?: number | null;
	readonly memoryInGb?: number | null;
	/** `RESERVED` (on demand) or `INTERRUPTABLE` (spot). */
	readonly podType?: string | null;
	readonly machine?: {readonly gpuDisplayName?: string | null; readonly location?: string | null} | null;
	readonly runtime?: PodRuntime | null;
	/** Details only: `KEY=value` strings, which often hold secrets. */
	readonly env?: ReadonlyArray<string | null> | null;
	readonly containerDiskInGb?: number | null;
	readonly volumeInGb?: number | null;
	readonly volumeMountPath?: string | null;
	readonly machineId?: string | null;
	/** `SECURE` or `COMMUNITY` (REST v2). */
	readonly cloudType?: string | null;
	/** The data center the pod runs in (REST v2). */
	readonly dataCenterId?: string | null;
	readonly cudaVersion?: string | null;
	/** The actions the service allows in the pod's state now (REST v2); undefined when the API does not say. */
	readonly actions?: readonly PodAction[] | null;
};

/** A pod as the summary read gives it (the Pods pane hidden): a subset of its record. */
export type PodSummary = Pick<PodRecord, 'id' | 'name' | 'desiredStatus' | 'costPerHr' | 'volumeInGb' | 'gpuCount' | 'podType'> & {
	readonly runtime?: {readonly gpus?: ReadonlyArray<{readonly gpuUtilPercent?: number | null}> | null} | null;
};

/** What a deploy sends. */
export type PodDeployInput = {
	readonly name?: string;
	readonly imageName?: string;
	readonly templateId?: string;
	readonly gpuTypeId: string;
	readonly gpuCount?: number;
	readonly cloudType?: 'ALL' | 'SECURE' | 'COMMUNITY';
	readonly volumeInGb?: number;
	readonly containerDiskInGb?: number;
	readonly minVcpuCount?: number;
	readonly minMemoryInGb?: number;
	readonly ports?: string;
	readonly volumeMountPath?: string;
	readonly env?: readonly EnvironmentVariable[];
	readonly dataCenterId?: string | null;
	readonly countryCode?: string;
	readonly supportPublicIp?: boolean;
	readonly startSsh?: boolean;
	readonly bidPerGpu?: number;
};

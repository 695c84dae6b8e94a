export type EndpointRecord = {
	readonly id: string;
	readonly name: string;
	readonly templateId?: string | null;
	readonly gpuIds?: string | null;
	readonly gpuCount?: number | null;
	readonly idleTimeout?: number | null;
	readonly locations?: string | null;
	readonly networkVolumeId?: string | null;
	readonly scalerType?: string | null;
	readonly scalerValue?: number | null;
	readonly workersMin?: number | null;
	readonly workersMax?: number | null;
	readonly workersStandby?: number | null;
	readonly flashBootType?: string | null;
	/** The endpoint's workers, as pods. */
	readonly pods?: ReadonlyArray<{readonly id?: string | null; readonly desiredStatus?: string | null} | null> | null;
};

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

export type PodRecord = {
	readonly id: string;
	readonly name?: string | null;
	readonly imageName?: string | null;
	readonly desiredStatus?: string | null;
	readonly costPerHr?: number | null;
	readonly gpuCount?: number | null;
	readonly vcpuCount?: number | null;
	readonly memoryInGb?: number | null;
	readonly podType?: string | null;
	readonly machine?: {readonly gpuDisplayName?: string | null; readonly location?: string | null} | null;
	readonly runtime?: PodRuntime | null;
	/** Details (`pod(input)` only): `KEY=value` strings, which often hold secrets. */
	readonly env?: ReadonlyArray<string | null> | null;
	readonly containerDiskInGb?: number | null;
	readonly volumeInGb?: number | null;
	readonly volumeMountPath?: string | null;
	readonly machineId?: string | null;
};

/** A pod as the summary query asks for it (the Pods pane hidden): a subset of its record. */
export type PodSummary = Pick<PodRecord, 'id' | 'name' | 'desiredStatus' | 'costPerHr' | 'volumeInGb' | 'gpuCount' | 'podType'> & {
	readonly runtime?: {readonly gpus?: ReadonlyArray<{readonly gpuUtilPercent?: number | null}> | null} | null;
};

/** The account's serverless discount, where it has one. */
export type ServerlessDiscount = {readonly discountFactor?: number | null; readonly type?: string | null; readonly expirationDate?: string | null};

export type LowestPrice = {
	readonly stockStatus?: string | null;
	readonly maxUnreservedGpuCount?: number | null;
	readonly availableGpuCounts?: readonly number[] | null;
	readonly minimumBidPrice?: number | null;
	readonly uninterruptablePrice?: number | null;
	/** Standards the offer is certified for (secure cloud); null where none. */
	readonly compliance?: ReadonlyArray<string | null> | null;
};

export type GpuTypeRecord = {
	readonly id: string;
	readonly displayName?: string | null;
	readonly manufacturer?: string | null;
	readonly memoryInGb?: number | null;
	readonly maxGpuCount?: number | null;
	readonly securePrice?: number | null;
	readonly communityPrice?: number | null;
	readonly secureSpotPrice?: number | null;
	readonly communitySpotPrice?: number | null;
	/** Committed prices per GPU-hour, for a week to six months. */
	readonly oneWeekPrice?: number | null;
	readonly oneMonthPrice?: number | null;
	readonly threeMonthPrice?: number | null;
	readonly sixMonthPrice?: number | null;
	readonly lowestPrice?: LowestPrice | null;
};

export type EnvironmentVariable = {readonly key: string; readonly value: string};

export type EndpointInput = Omit<EndpointRecord, 'id' | 'pods'> & {
	readonly id?: string;
	readonly env?: readonly EnvironmentVariable[] | null;
	readonly executionTimeoutMs?: number | null;
	readonly allowedCudaVersions?: string | null;
};

/** An endpoint with every field a save sends back. */
export type SavedEndpoint = EndpointInput & {readonly id: string};

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

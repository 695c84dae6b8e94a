/** What the service says a serverless worker is doing (REST v2). */
export type WorkerStatus = 'RUNNING' | 'IDLE' | 'INITIALIZING' | 'THROTTLED' | 'UNHEALTHY';

/** podtop's record of one active worker of a serverless endpoint. Only active workers are listed by the service. */
export type WorkerRecord = {
	readonly id: string;
	/** The service's word; an unknown one is kept as sent (sanitised where shown). */
	readonly status: WorkerStatus | string;
	/** Runs an older release than the endpoint's current one. */
	readonly isStale: boolean;
	readonly version?: number;
	readonly gpuTypeId?: string;
	readonly gpuCount?: number;
	readonly dataCenterId?: string;
	readonly image?: string;
	readonly uptimeSeconds?: number;
	/** Epoch ms. */
	readonly startedAt?: number;
};

/** An endpoint's workers as one read saw them. */
export type WorkerList = {
	readonly endpointId: string;
	/** The endpoint's current release. */
	readonly endpointVersion?: number;
	readonly workers: readonly WorkerRecord[];
	/** Epoch ms of the read. */
	readonly readAt: number;
};

/** One field a release changed. */
export type ReleaseChange = {readonly field: string; readonly old?: string; readonly new?: string};

export type Release = {
	readonly version: number;
	readonly source?: string;
	readonly workerCount?: number;
	/** Epoch ms. */
	readonly createdAt?: number;
	readonly diff: readonly ReleaseChange[];
};

/** An endpoint's releases and how far the latest has rolled out. */
export type Rollout = {
	readonly endpointId: string;
	readonly endpointVersion?: number;
	readonly inProgress: boolean;
	readonly workersOnLatest: number;
	readonly workersTotal: number;
	readonly percentOnLatest: number;
	/** Newest first. */
	readonly releases: readonly Release[];
};

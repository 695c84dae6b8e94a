/** Operations as the job API names them; `/status` and `/status-sync` share one limit, `/stream` and `/compat/*` have their own. */
export const jobOperations = ['run', 'runsync', 'status', 'status-sync', 'stream', 'compat', 'cancel', 'retry', 'purge-queue', 'health'] as const;
export type JobOperation = (typeof jobOperations)[number];

export type RateLimit = {
	/** Requests per 10-second window; undefined where the service publishes none. */
	readonly perWindow?: number;
	/** Requests in flight at once; undefined where the service publishes none. */
	readonly concurrent?: number;
};

export const rateWindowMs = 10_000;

/** The published limits, per API key, endpoint and operation group. */
export const publishedLimits = {
	run: {perWindow: 1000, concurrent: 200},
	runsync: {perWindow: 2000, concurrent: 400},
	status: {perWindow: 2000, concurrent: 400},
	stream: {perWindow: 2000, concurrent: 400},
	compat: {perWindow: 2000, concurrent: 400},
	cancel: {perWindow: 100, concurrent: 20},
	'purge-queue': {perWindow: 2},
	retry: {},
	health: {},
} as const satisfies Record<string, RateLimit>;

export type LimitGroup = keyof typeof publishedLimits;

export function limitGroupOf(operation: JobOperation): LimitGroup {
	return operation === 'status-sync' ? 'status' : operation;
}

/** Queue protection: `/run` and `/runsync` get 429 when the queue is over 50 jobs and over workersMax × 500. */
export function isQueueFull(queued: number, workersMax: number): boolean {
	return queued > 50 && queued > workersMax * 500;
}

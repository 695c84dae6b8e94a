/** Job states of the service; any other string is treated as non-terminal, never a crash. */
export type KnownJobStatus = 'IN_QUEUE' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED' | 'CANCELLED' | 'TIMED_OUT';
export type JobStatus = KnownJobStatus | (string & Record<never, never>);

const terminal = new Set<string>(['COMPLETED', 'FAILED', 'CANCELLED', 'TIMED_OUT']);

export function isTerminalStatus(status: JobStatus): boolean {
	return terminal.has(status);
}

export type JobStatusBody = {
	readonly id: string;
	readonly status: JobStatus;
	readonly delayTime?: number;
	readonly executionTime?: number;
	readonly workerId?: string;
	readonly output?: unknown;
	/** Always a string on the wire (often JSON text inside it). */
	readonly error?: string;
	readonly retries?: number;
};

export type StreamChunk = {readonly output?: unknown; readonly metrics?: Record<string, unknown>};
export type StreamBody = {readonly status: JobStatus; readonly stream: readonly StreamChunk[]};

export type JobPolicy = {readonly executionTimeout?: number; readonly ttl?: number; readonly lowPriority?: boolean};

export type JobRequest = {
	readonly input: Record<string, unknown>;
	readonly webhook?: string;
	readonly policy?: JobPolicy;
	readonly s3Config?: Record<string, unknown>;
};

export type Health = {
	readonly jobs: {readonly completed: number; readonly failed: number; readonly inProgress: number; readonly inQueue: number; readonly retried: number};
	readonly workers: {
		readonly idle: number;
		readonly initializing: number;
		readonly ready: number;
		readonly running: number;
		readonly throttled: number;
		readonly unhealthy: number;
	};
};

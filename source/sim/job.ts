import type {SimTimer} from './clock.js';
import type {JobPolicy, JobRequest} from './job-request.js';

export const terminalStatuses = ['COMPLETED', 'FAILED', 'CANCELLED', 'TIMED_OUT'] as const;
export type TerminalStatus = (typeof terminalStatuses)[number];
export type JobStatus = 'IN_QUEUE' | 'IN_PROGRESS' | TerminalStatus;

export type Job = {
	readonly id: string;
	readonly endpointId: string;
	readonly input: Record<string, unknown>;
	readonly webhook: string | undefined;
	readonly policy: JobPolicy;
	/** Submitted through `/runsync`: shorter retention. */
	readonly sync: boolean;
	/** Retention of a finished result, simulated milliseconds. */
	retention: number;
	status: JobStatus;
	/** Simulated epoch milliseconds. */
	queuedAt: number;
	startedAt?: number;
	finishedAt?: number;
	workerId?: string;
	output?: unknown;
	error?: string;
	/** Set when the platform itself retried the job. */
	retries?: number;
	/** Chunks produced since the last `/stream` call. */
	pendingChunks: unknown[];
	/** Every yield, for `return_aggregate_stream`. */
	yields: unknown[];
	/** Simulated time at which the job is dropped. */
	expiresAt: number;
	expiryTimer?: SimTimer;
	/** Stops the worker's handler (cancel, timeout, expiry). */
	stopExecution?: () => void;
	/** Called on any change a long-poll may be waiting for. */
	readonly waiters: Set<() => void>;
};

export function isTerminal(status: JobStatus): status is TerminalStatus {
	return (terminalStatuses as readonly string[]).includes(status);
}

/** The `/status` body for a job, shaped per state as the service sends it. */
export function toStatusBody(job: Job): Record<string, unknown> {
	const body: Record<string, unknown> = {id: job.id, status: job.status};
	if (job.status === 'IN_QUEUE') {
		return body;
	}

	if (job.startedAt !== undefined) {
		body.delayTime = Math.round(job.startedAt - job.queuedAt);
		if (job.workerId !== undefined) {
			body.workerId = job.workerId;
		}
	}

	if (job.status === 'IN_PROGRESS') {
		return body;
	}

	if (job.startedAt !== undefined && job.finishedAt !== undefined) {
		body.executionTime = Math.round(job.finishedAt - job.startedAt);
	}

	if (job.status === 'COMPLETED') {
		body.output = job.output;
	}

	if (job.error !== undefined) {
		body.error = job.error;
	}

	if (job.retries !== undefined) {
		body.retries = job.retries;
	}

	return body;
}

export function notifyWaiters(job: Job): void {
	for (const waiter of job.waiters) {
		waiter();
	}
}

/** A new job, queued now; it lives `policy.ttl` unless it finishes first. */
export function createJob(id: string, endpointId: string, request: JobRequest, sync: boolean, retention: number, now: number): Job {
	return {
		id,
		endpointId,
		input: request.input,
		webhook: request.webhook,
		policy: request.policy,
		sync,
		retention,
		status: 'IN_QUEUE',
		queuedAt: now,
		pendingChunks: [],
		yields: [],
		expiresAt: now + request.policy.ttl,
		waiters: new Set(),
	};
}

/** `/retry`: the same job back in the queue, its output, error and timings gone, its ttl restarted. */
export function resetForRetry(job: Job, now: number): void {
	for (const key of ['output', 'error', 'startedAt', 'finishedAt', 'workerId', 'retries'] as const) {
		delete job[key];
	}

	job.status = 'IN_QUEUE';
	job.queuedAt = now;
	job.pendingChunks = [];
	job.yields = [];
	job.expiresAt = now + job.policy.ttl;
}

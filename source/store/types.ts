import type {EndpointRecord} from '../model/endpoint.js';
import type {GpuTypeRecord} from '../model/gpu-type.js';
import type {PodRecord} from '../model/pod.js';
import type {ApiErrorKind} from '../api/errors.js';
import type {Health, JobStatus} from '../api/job-types.js';

export type SourceName = 'jobApi' | 'graphql';

/** Freshness of one data source: what the UI needs to be honest about its data. */
export type ConnectionState = {
	readonly lastSuccessAt?: number;
	readonly lastErrorAt?: number;
	readonly lastError?: string;
	/** Set at the first failure after a success; cleared by the next success. */
	readonly staleSince?: number;
};

export type HealthSample = {
	readonly at: number;
	readonly inQueue: number;
	readonly inProgress: number;
	readonly completed: number;
	readonly failed: number;
	readonly retried: number;
	readonly running: number;
};

export type EndpointFigures = {
	readonly throughputPerMinute: number | undefined;
	/** Failed share of finished jobs in the window, 0..1. */
	readonly failureRate: number | undefined;
	/** Retries per finished job in the window. */
	readonly retryRate: number | undefined;
	/** Seconds until the queue is empty at the current pace; undefined when it is not draining. */
	readonly drainEtaSeconds: number | undefined;
};

export type EndpointState = {
	readonly record: EndpointRecord;
	readonly health?: Health;
	readonly healthAt?: number;
	readonly healthError?: string;
	readonly history: readonly HealthSample[];
	readonly figures: EndpointFigures;
};

export type PodState = {
	readonly record: PodRecord;
	/** Mean GPU utilisation over time, newest last. */
	readonly utilHistory: readonly number[];
};

export type StockStatus = 'High' | 'Medium' | 'Low' | 'None' | 'Unknown';

export type GpuState = {
	readonly record: GpuTypeRecord;
	readonly stockHistory: readonly StockStatus[];
};

/** One pod's details while they are open: the `pod(input)` answer, and each GPU's recent utilisation and memory. */
export type PodDetail = {
	readonly podId: string;
	/** Null: the service says there is no such pod (terminated). */
	readonly record: PodRecord | null;
	readonly updatedAt: number;
	readonly gpuHistory: ReadonlyArray<{readonly util: readonly number[]; readonly memory: readonly number[]}>;
};

export type TrackedJob = {
	readonly key: string;
	readonly endpointId: string;
	readonly id: string;
	readonly status: JobStatus;
	readonly trackedAt: number;
	readonly updatedAt: number;
	readonly delayTime?: number;
	readonly executionTime?: number;
	readonly workerId?: string;
	readonly error?: string;
	readonly output?: unknown;
	/** Poll its stream (a job view is open on it). */
	readonly follow: boolean;
	/** Stream chunks received so far. */
	readonly chunkCount: number;
	/** Its stream was read once it had ended: every chunk it will ever have has arrived. */
	readonly streamEnded?: boolean;
	/** Text output so far: the tail of it, 256 KB while followed, 16 KB after. */
	readonly text: string;
	readonly metrics?: Record<string, unknown>;
	/** The latest poll of this job failed: what happened, and of which kind (a 404 ends a `job` tail with 4). */
	readonly lastError?: string;
	readonly lastErrorKind?: ApiErrorKind;
	/** Submitted by this client (ms): the service may not know it for a moment yet. */
	readonly submittedAt?: number;
	/** This client submitted it and the service does not know it yet: waiting for it to start, not an error. */
	readonly starting?: boolean;
	/** A chat over the OpenAI-compatible routes: its text comes with the answer, so it is never polled. */
	readonly via?: 'compat';
};

export type BudgetState = {
	readonly key: string;
	readonly used: number;
	readonly allowed: number;
	readonly windowMs: number;
	readonly inFlight: number;
	readonly concurrency: number;
	readonly backoffUntil?: number;
	/** The service's own windows (v2's minute, hour, day): what is left of each for every tool on the key. */
	readonly windows?: readonly ServiceWindowState[];
	/** Why podtop sends slower than its share allows, when it does. */
	readonly slowed?: BudgetSlowdown;
};

export type ServiceWindowState = {readonly name: string; readonly remaining: number; readonly limit: number};

/**
`rate-limited`: a 429, waiting it out; `spent`: podtop's share of `window` is used, waiting for its reset;
`others`: another tool on the key is spending `window` faster than podtop, so podtop takes less;
`unreadable`: the service's rate headers were missing or malformed, so podtop spaces its requests conservatively.
*/
export type BudgetSlowdown = {readonly reason: 'rate-limited' | 'spent' | 'others' | 'unreadable'; readonly window?: string};

export type PaneName = 'endpoints' | 'pods' | 'gpus' | 'job';

/** A rule firing now: its condition has held on one subject for the rule's time. */
export type FiringAlert = {
	/** The rule and the subject: one firing per pair. */
	readonly id: string;
	readonly rule: string;
	readonly kind: string;
	/** What it fires on (an endpoint, pod or GPU type id, or `account`), and that thing's name. */
	readonly subject: string;
	readonly subjectName: string;
	/** What holds, in numbers: "63 jobs in queue (over 50)". */
	readonly message: string;
	/** When the condition began to hold, and when the rule fired. */
	readonly since: number;
	readonly firedAt: number;
};

/** How a probe ended: done, the job failed (or was cancelled or timed out), refused or maybe sent, not done in its time, or lost track of. */
export type ProbeOutcome = 'ok' | 'failed' | 'refused' | 'ambiguous' | 'timeout' | 'lost';

/** One probe: a small job sent on a `[[probe]]` rule's cadence, and how long it took. */
export type ProbeSample = {
	/** When it was sent. */
	readonly at: number;
	readonly jobId?: string;
	/** Time in the queue and running (ms), from the service's `/status`. */
	readonly delayMs?: number;
	readonly executionMs?: number;
	/** It met a cold worker (the shared rule of lib/cold-start.ts). */
	readonly cold?: boolean;
	readonly outcome: ProbeOutcome;
	/** Why it did not end `ok` (sanitised, short). */
	readonly error?: string;
};

/** The probes: whether any rule is configured here, and each endpoint's recent ones, oldest first. */
export type ProbeState = {
	readonly configured: boolean;
	readonly byEndpoint: Readonly<Record<string, readonly ProbeSample[]>>;
};

import type {SimTimer} from './clock.js';
import type {LogRing} from './logs/log-ring.js';

/** `crashing`: a container that dies and restarts (the fault `crash-loop`); the service shows it as `shownAs`. */
export const workerStates = ['initializing', 'idle', 'running', 'throttled', 'unhealthy', 'crashing'] as const;
export type WorkerState = (typeof workerStates)[number];

export type SimWorker = {
	readonly id: string;
	state: WorkerState;
	/** Simulated time the worker entered its state. */
	since: number;
	jobId?: string;
	timer?: SimTimer;
	/** The endpoint version (release) it was started on: older than the endpoint's is stale. */
	readonly version: number;
	readonly image: string;
	/** Where it runs, once placed (a throttled worker waits for a GPU). */
	gpuTypeId?: string;
	dataCenterId?: string;
	/** When its container last started (simulated ms); a crash-looping worker's restarts reset it. */
	startedAt?: number;
	restarts: number;
	/** A crash-looping worker's status as the service reports it. */
	shownAs?: 'running' | 'throttled';
	/** Its system and container lines; closed when it goes. */
	readonly logs: LogRing;
};

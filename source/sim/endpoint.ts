import type {SimClock, SimTimer} from './clock.js';
import type {EndpointSpec} from './endpoint-spec.js';
import {createClientJobId, createJobId} from './ids.js';
import {createJob, isTerminal, notifyWaiters, resetForRetry, type Job, type TerminalStatus} from './job.js';
import type {JobRequest} from './job-request.js';
import type {Random} from './random.js';
import type {CrashCause} from './logs/crash-causes.js';
import {isQueueFull} from './rate-table.js';
import {ReleaseHistory} from './releases.js';
import {splitOutput} from './stream-chunks.js';
import type {SimWorker} from './sim-worker.js';
import {WorkerPool, type WorkerMeter} from './worker-pool.js';
import {workerHandlers} from './workers/index.js';

const minute = 60_000;
export const asyncRetention = 30 * minute;
export const syncRetention = {min: minute, max: 5 * minute} as const;

type EndpointOptions = {
	readonly spec: EndpointSpec;
	readonly clock: SimClock;
	readonly random: Random;
	readonly baseUrl: () => string;
	/** A job reached a terminal state (webhooks hang off this). */
	readonly onTerminal: (job: Job) => void;
	/** Start as if it had been serving for hours: warm workers, lifetime counters. */
	readonly warm?: boolean;
	/** An injected `crash-loop` fault for this endpoint, if any (the spec's own `crashLoop` comes first). */
	readonly crashCause?: () => CrashCause | undefined;
	/** Told of each worker's change, for the bills (public endpoints bill their callers, not the account). */
	readonly meter?: WorkerMeter;
};

type Outcome = {readonly output?: unknown; readonly error?: string; readonly retries?: number};

/** One serverless endpoint: its queue, its jobs (until they expire) and its worker pool. */
export class Endpoint {
	spec: EndpointSpec;
	readonly counters = {completed: 0, failed: 0, retried: 0};
	/** Its releases, newest first (REST v2 `/releases`). */
	readonly releases: ReleaseHistory;
	readonly #options: EndpointOptions;
	readonly #jobs = new Map<string, Job>();
	#queue: Job[] = [];
	readonly #pool: WorkerPool;
	#scalerTimer?: SimTimer;
	/** When the scaler looks at the queue again (simulated ms), while a job waits for its queue delay. */
	#scalerDue?: number;

	constructor(options: EndpointOptions) {
		this.#options = options;
		this.spec = options.spec;
		this.releases = new ReleaseHistory(options.spec, options.random.fork('releases'));
		this.#pool = new WorkerPool({
			clock: options.clock,
			random: options.random.fork('workers'),
			spec: () => this.spec,
			onChange: () => {
				this.#schedule();
			},
			crashCause: () => this.spec.crashLoop ?? options.crashCause?.(),
			meter: options.meter,
		});
		if (options.warm) {
			const hours = options.random.between(2, 40);
			this.counters.completed = Math.round(options.spec.loadPerMinute * 60 * hours);
			this.counters.failed = Math.round(this.counters.completed * (options.spec.worker === 'flaky' ? 0.3 : 0.01));
			this.counters.retried = Math.round(this.counters.failed * 0.2);
			this.#pool.warmStart();
		}

		this.#schedule();
	}

	get id(): string {
		return this.spec.id;
	}

	get jobCount(): number {
		return this.#jobs.size;
	}

	/** Every job it still holds (until expiry), oldest first: `/__sim/jobs` lists their times. */
	jobs(): IterableIterator<Job> {
		return this.#jobs.values();
	}

	get queueLength(): number {
		return this.#queue.length;
	}

	get workers(): Iterable<SimWorker> {
		return this.#pool.workers;
	}

	runningWorkers(): number {
		return this.#pool.counts().running;
	}

	isQueueFull(): boolean {
		return isQueueFull(this.#queue.length, this.spec.workersMax);
	}

	/** A job into the queue: a client's (`/run`, `/runsync`), or the background load's (its id from the seed). */
	submit(request: JobRequest, sync: boolean, retention: number, from: 'client' | 'load' = 'client'): Job {
		// Drawn for a client's job too: the seeded stream moves as it always has, whoever sent the job.
		const seeded = createJobId(this.#options.random, sync);
		const id = from === 'load' ? seeded : createClientJobId(sync);
		const job = createJob(id, this.id, request, sync, retention, this.#options.clock.now());
		this.#jobs.set(job.id, job);
		this.#queue.push(job);
		this.#armExpiry(job);
		this.#schedule();
		return job;
	}

	/** The job, or undefined when it never existed or has expired. */
	get(jobId: string): Job | undefined {
		const job = this.#jobs.get(jobId);
		if (job && job.expiresAt <= this.#options.clock.now()) {
			this.#drop(job);
			return undefined;
		}

		return job;
	}

	/** `/status?ttl=`: the caller wants the job gone sooner. */
	shortenLife(job: Job, ttlMs: number): void {
		job.expiresAt = Math.min(job.expiresAt, this.#options.clock.now() + ttlMs);
		this.#armExpiry(job);
	}

	/** Removes a queued job or stops a running one; a finished job is left as it is. */
	cancel(job: Job): void {
		if (!isTerminal(job.status)) {
			this.#finish(job, 'CANCELLED', {});
		}
	}

	/** Only FAILED or TIMED_OUT jobs go back to the queue, with the same id and input. */
	retry(job: Job): boolean {
		if (job.status !== 'FAILED' && job.status !== 'TIMED_OUT') {
			return false;
		}

		resetForRetry(job, this.#options.clock.now());
		this.counters.retried++;
		this.#queue.push(job);
		this.#armExpiry(job);
		notifyWaiters(job);
		this.#schedule();
		return true;
	}

	/** Drops every queued job; running jobs are untouched. Returns how many went. */
	purgeQueue(): number {
		const purged = this.#queue;
		this.#queue = [];
		for (const job of purged) {
			this.#drop(job);
		}

		this.#schedule();
		return purged.length;
	}

	/** `/health`: job counters (completed, failed, retried cumulative) and the six worker states (a crash-looping worker as the service shows it). */
	health(): {jobs: Record<string, number>; workers: Record<string, number>} {
		const counts = this.#pool.counts();
		const inProgress = counts.running;
		for (const worker of this.#pool.workers) {
			if (worker.state === 'crashing') {
				counts[worker.shownAs ?? 'running']++;
			}
		}

		return {
			jobs: {
				completed: this.counters.completed,
				failed: this.counters.failed,
				inProgress,
				inQueue: this.#queue.length,
				retried: this.counters.retried,
			},
			workers: {
				idle: counts.idle,
				initializing: counts.initializing,
				ready: counts.idle + counts.running,
				running: counts.running,
				throttled: counts.throttled,
				unhealthy: counts.unhealthy,
			},
		};
	}

	/** Replaces the spec (a GraphQL save) and rescales to it. */
	update(spec: EndpointSpec): void {
		this.releases.record(this.spec, spec, this.#options.clock.now());
		this.spec = spec;
		this.#pool.rescale();
		this.#schedule();
	}

	dispose(): void {
		this.#scalerTimer?.cancel();
		for (const job of this.#jobs.values()) {
			job.stopExecution?.();
			job.expiryTimer?.cancel();
		}

		this.#jobs.clear();
		this.#queue = [];
		this.#pool.dispose();
	}

	/** Dispatches queued jobs to idle workers and asks the pool for the workers the queue needs. */
	#schedule(): void {
		for (let worker = this.#pool.findIdle(); worker && this.#queue.length > 0; worker = this.#pool.findIdle()) {
			const index = this.#queue.findIndex(job => !job.policy.lowPriority);
			const [job] = this.#queue.splice(index === -1 ? 0 : index, 1);
			this.#start(job!, worker);
		}

		const now = this.#options.clock.now();
		const delayMs = this.spec.scalerValue * 1000;
		let waiting = 0;
		let overdue = 0;
		let nextOverdueAt = Number.POSITIVE_INFINITY;
		for (const job of this.#queue) {
			if (!job.policy.lowPriority) {
				waiting++;
				if (now - job.queuedAt >= delayMs) {
					overdue++;
				} else {
					nextOverdueAt = Math.min(nextOverdueAt, job.queuedAt + delayMs);
				}
			}
		}

		this.#pool.reconcile({waiting, overdue, running: this.#pool.counts().running});
		const scalerDue = Number.isFinite(nextOverdueAt) && this.spec.scalerType === 'QUEUE_DELAY' ? nextOverdueAt : undefined;
		// Most calls leave the next look where it was: the timer set for it stays.
		if (scalerDue === this.#scalerDue) {
			return;
		}

		this.#scalerTimer?.cancel();
		this.#scalerDue = scalerDue;
		this.#scalerTimer =
			scalerDue === undefined
				? undefined
				: this.#options.clock.setTimeout(() => {
						this.#scalerTimer = undefined;
						this.#scalerDue = undefined;
						this.#schedule();
					}, scalerDue - now);
	}

	#start(job: Job, worker: SimWorker): void {
		const {clock, random, baseUrl} = this.#options;
		this.#pool.assign(worker, job.id);
		job.status = 'IN_PROGRESS';
		job.startedAt = clock.now();
		job.workerId = worker.id;
		this.#pool.journal.jobStarted(worker, job, job.startedAt);
		const live = () => job.status === 'IN_PROGRESS' && job.workerId === worker.id && this.#jobs.has(job.id);
		const stopHandler = workerHandlers[this.spec.worker](job.input, {
			clock,
			random,
			baseUrl: baseUrl(),
			jobId: job.id,
			yield: (output, metrics) => {
				if (live()) {
					this.#yield(job, output, metrics);
				}
			},
			complete: output => {
				if (live()) {
					this.#finish(job, 'COMPLETED', {output});
				}
			},
			fail: (error, retries) => {
				if (live()) {
					this.#finish(job, 'FAILED', {error, retries});
				}
			},
		});
		const timeout = clock.setTimeout(() => {
			this.#finish(job, 'TIMED_OUT', {});
		}, job.policy.executionTimeout);
		job.stopExecution = () => {
			stopHandler();
			timeout.cancel();
		};

		notifyWaiters(job);
	}

	#yield(job: Job, output: unknown, metrics: Record<string, unknown> | undefined): void {
		job.yields.push(output);
		for (const piece of splitOutput(output)) {
			job.pendingChunks.push(metrics ? {metrics, output: piece} : {output: piece});
		}

		notifyWaiters(job);
	}

	#finish(job: Job, status: TerminalStatus, outcome: Outcome): void {
		const now = this.#options.clock.now();
		const wasRunning = job.status === 'IN_PROGRESS';
		const worker = wasRunning && job.workerId !== undefined ? this.#pool.get(job.workerId) : undefined;
		// Before the worker is released: a stale one goes then, and its log with it.
		if (worker) {
			const error = status === 'FAILED' ? (outcome.error ?? 'Job failed') : undefined;
			this.#pool.journal.jobEnded(worker, {id: job.id, status, error, timeoutMs: job.policy.executionTimeout}, now);
		}

		this.#stop(job);
		job.status = status;
		job.finishedAt = now;
		if (status === 'COMPLETED') {
			job.output = this.spec.returnAggregateStream ? job.yields : (outcome.output ?? job.yields.at(-1) ?? null);
			this.counters.completed++;
		} else if (status === 'FAILED' || status === 'TIMED_OUT') {
			job.error = outcome.error ?? (status === 'TIMED_OUT' ? `Job timed out after ${job.policy.executionTimeout} ms` : 'Job failed');
			this.counters.failed++;
		}

		if (outcome.retries !== undefined) {
			job.retries = outcome.retries;
		}

		if (!wasRunning) {
			delete job.startedAt;
		}

		notifyWaiters(job);
		this.#options.onTerminal(job);
		// In the simulated past no client holds a job's id: a finished one goes at once, not after its retention.
		if (this.#options.clock.inPast) {
			this.#drop(job);
		} else {
			job.expiresAt = Math.min(job.expiresAt, now + job.retention);
			this.#armExpiry(job);
		}

		this.#schedule();
	}

	/** Takes a job off the queue or off its worker, without deciding its fate. */
	#stop(job: Job): void {
		if (job.status === 'IN_QUEUE') {
			this.#queue = this.#queue.filter(queued => queued !== job);
		}

		job.stopExecution?.();
		job.stopExecution = undefined;
		const worker = job.workerId === undefined ? undefined : this.#pool.get(job.workerId);
		if (worker?.jobId === job.id) {
			this.#pool.release(worker);
		}
	}

	#drop(job: Job): void {
		this.#stop(job);
		job.expiryTimer?.cancel();
		this.#jobs.delete(job.id);
		notifyWaiters(job);
	}

	#armExpiry(job: Job): void {
		job.expiryTimer?.cancel();
		job.expiryTimer = this.#options.clock.setTimeout(() => {
			this.#drop(job);
		}, job.expiresAt - this.#options.clock.now());
	}
}

export {type JobStatus} from './job.js';

import type {SimClock} from './clock.js';
import {crashLoop} from './crash-loop.js';
import {imageOf, type EndpointSpec} from './endpoint-spec.js';
import {createWorkerId} from './ids.js';
import type {CrashCause} from './logs/crash-causes.js';
import {LogRing} from './logs/log-ring.js';
import {WorkerJournal} from './logs/worker-journal.js';
import type {Random} from './random.js';
import {workerStates, type SimWorker, type WorkerState} from './sim-worker.js';
import {placeWorker} from './worker-placement.js';

/** What the queue asks of the scaler. Low-priority jobs are not counted: they never trigger scaling. */
export type Demand = {
	/** Jobs waiting, low-priority ones excluded. */
	readonly waiting: number;
	/** Of those, jobs that have waited at least the scaler's queue delay. */
	readonly overdue: number;
	/** Jobs running now. */
	readonly running: number;
};

type PoolOptions = {
	readonly clock: SimClock;
	readonly random: Random;
	readonly spec: () => EndpointSpec;
	/** A worker became idle or went away: time to dispatch and to rescale. */
	readonly onChange: () => void;
	/** Why containers crash at start now (the fault `crash-loop`), if they do. */
	readonly crashCause?: () => CrashCause | undefined;
	/** Told of each worker's change (placed, state, gone), for the bills. */
	readonly meter?: WorkerMeter;
};

export type WorkerMeter = (worker: SimWorker, change: {readonly gpuCount: number; readonly removed: boolean; readonly at: number}) => void;

const unhealthyChance = 0.01;

/**
An endpoint's workers between workersMin and workersMax: cold starts (initializing), idle,
running, scale-up on demand, scale-down after the idle timeout, throttled while a GPU is not
free (more likely near the maximum), and an occasional unhealthy worker that is replaced.
*/
export class WorkerPool {
	/** Writes its workers' log lines. */
	readonly journal: WorkerJournal;
	readonly #options: PoolOptions;
	readonly #workers = new Map<string, SimWorker>();
	/** Workers per state, kept as they change (the scaler asks on every queue change). */
	readonly #tally: Record<WorkerState, number> = {initializing: 0, idle: 0, running: 0, throttled: 0, unhealthy: 0, crashing: 0};
	/** Draws for placement, logs and crashes: a stream of its own, so the scaler's draws stay as they were. */
	readonly #side: Random;

	constructor(options: PoolOptions) {
		this.#options = options;
		this.#side = options.random.fork('worker-life');
		this.journal = new WorkerJournal(this.#side.fork('journal'), options.spec);
	}

	get workers(): Iterable<SimWorker> {
		return this.#workers.values();
	}

	get(id: string): SimWorker | undefined {
		return this.#workers.get(id);
	}

	counts(): Record<WorkerState, number> {
		return {...this.#tally};
	}

	findIdle(): SimWorker | undefined {
		for (const worker of this.#workers.values()) {
			if (worker.state === 'idle') {
				return worker;
			}
		}

		return undefined;
	}

	assign(worker: SimWorker, jobId: string): void {
		this.#enter(worker, 'running');
		worker.jobId = jobId;
	}

	/** A worker's job ended: it idles (rarely it turns unhealthy and is replaced), or goes when the endpoint is over its maximum or has a newer release. */
	release(worker: SimWorker): void {
		worker.jobId = undefined;
		if (this.#active() > this.#options.spec().workersMax) {
			this.#remove(worker, 'scaled down: over workers.max');
			return;
		}

		if (worker.version < this.#options.spec().version) {
			this.#remove(worker, `replaced by release v${this.#options.spec().version}`);
			return;
		}

		if (this.#options.random.chance(unhealthyChance)) {
			this.#enter(worker, 'unhealthy');
			this.journal.unhealthy(worker, this.#options.clock.now());
			worker.timer = this.#options.clock.setTimeout(
				() => {
					this.#remove(worker, 'unhealthy, replaced');
				},
				this.#options.random.int(20_000, 60_000),
			);
			return;
		}

		this.#becomeIdle(worker);
	}

	/** Adds workers the demand calls for, within workersMin and workersMax. Returns how many it added. */
	reconcile(demand: Demand): number {
		const spec = this.#options.spec();
		const counts = this.#tally;
		const active = this.#active();
		const spare = counts.idle + counts.initializing + counts.throttled + counts.crashing;
		let wanted = spec.workersMin - active;
		if (spec.scalerType === 'REQUEST_COUNT') {
			wanted = Math.max(wanted, Math.ceil((demand.waiting + demand.running) / Math.max(1, spec.scalerValue)) - active);
		} else if (demand.waiting > 0 && active === 0) {
			wanted = Math.max(wanted, 1);
		} else {
			wanted = Math.max(wanted, demand.overdue - spare);
		}

		const adding = Math.max(0, Math.min(wanted, spec.workersMax - active));
		for (let index = 0; index < adding; index++) {
			this.#add(active + index + 1 >= spec.workersMax);
		}

		return adding;
	}

	/**
	After the spec changed: workers over the new maximum that are not running go now (running ones
	go when their job ends), and idle workers restart their idle timeout against the new minimum, or,
	on an older release, are replaced one by one (running ones when their job ends).
	*/
	rescale(): void {
		const order: readonly WorkerState[] = ['crashing', 'throttled', 'initializing', 'idle'];
		for (const state of order) {
			for (const worker of this.#workers.values()) {
				if (worker.state === state && this.#active() > this.#options.spec().workersMax) {
					this.#remove(worker, 'scaled down: over workers.max');
				}
			}
		}

		for (const worker of this.#workers.values()) {
			if (worker.state === 'idle') {
				this.#armIdle(worker);
			}
		}
	}

	/** Starts with workersMin workers already warm (a fleet that has been running for a while): placed and up for minutes to hours. */
	warmStart(): void {
		const {clock, random, spec} = this.#options;
		// A crash-looping endpoint has no warm workers: the scaler starts them cold, and they crash.
		if (this.#options.crashCause?.()) {
			return;
		}

		while (this.#active() < spec().workersMin) {
			const worker = this.#create(createWorkerId(random), 'idle');
			this.#tally.idle++;
			const startedAt = clock.now() - this.#side.int(10 * 60_000, 6 * 3_600_000);
			this.#place(worker, startedAt);
			worker.startedAt = startedAt + this.#side.int(800, 18_000);
			this.journal.containerStarted(worker, startedAt, worker.startedAt);
			this.journal.ready(worker, worker.startedAt);
			this.#becomeIdle(worker);
		}
	}

	/** Stops every timer and ends every log; the pool is not used again. */
	dispose(): void {
		for (const worker of this.#workers.values()) {
			worker.timer?.cancel();
			worker.logs.close();
			this.#metered(worker, true);
		}

		this.#workers.clear();
		for (const state of workerStates) {
			this.#tally[state] = 0;
		}
	}

	#create(id: string, state: WorkerState): SimWorker {
		const spec = this.#options.spec();
		const worker: SimWorker = {id, state, since: this.#options.clock.now(), version: spec.version, image: imageOf(spec), restarts: 0, logs: new LogRing()};
		this.#workers.set(worker.id, worker);
		return worker;
	}

	#place(worker: SimWorker, now: number): void {
		const place = placeWorker(this.#options.spec(), this.#side);
		worker.gpuTypeId = place?.gpuTypeId;
		worker.dataCenterId = place?.dataCenterId;
		this.journal.placed(worker, now);
		this.#metered(worker, false, now);
	}

	#metered(worker: SimWorker, removed: boolean, at = this.#options.clock.now()): void {
		this.#options.meter?.(worker, {gpuCount: this.#options.spec().gpuCount, removed, at});
	}

	#add(atMaximum: boolean): void {
		const {clock, random} = this.#options;
		const worker = this.#create(createWorkerId(random), 'initializing');
		this.#tally.initializing++;
		if (random.chance(atMaximum ? 0.4 : 0.1)) {
			this.#enter(worker, 'throttled');
			this.journal.throttled(worker, clock.now());
			worker.timer = clock.setTimeout(
				() => {
					this.#initialize(worker);
				},
				random.int(5000, 25_000),
			);
			return;
		}

		this.#initialize(worker);
	}

	#initialize(worker: SimWorker): void {
		const {clock, random, spec} = this.#options;
		this.#enter(worker, 'initializing');
		const from = clock.now();
		this.#place(worker, from);
		const coldStartMs = spec().flashBoot ? random.int(800, 3000) : random.int(4000, 18_000);
		worker.timer = clock.setTimeout(() => {
			this.#containerUp(worker, from);
		}, coldStartMs);
	}

	/** The cold start is over: the container runs and the worker is ready, or it crashes (the fault `crash-loop`). */
	#containerUp(worker: SimWorker, from: number): void {
		const now = this.#options.clock.now();
		worker.startedAt = now;
		const cause = this.#options.crashCause?.();
		this.journal.containerStarted(worker, from, now, !cause);
		if (!cause) {
			this.journal.ready(worker, now);
			this.#becomeIdle(worker);
			return;
		}

		worker.shownAs = this.#side.chance(0.6) ? 'running' : 'throttled';
		this.#enter(worker, 'crashing');
		crashLoop(worker, cause, {
			clock: this.#options.clock,
			random: this.#side,
			cause: () => this.#options.crashCause?.(),
			recovered: (recovered, startedAt) => {
				this.journal.containerStarted(recovered, startedAt, this.#options.clock.now());
				this.journal.ready(recovered, this.#options.clock.now());
				this.#becomeIdle(recovered);
			},
			giveUp: crashed => {
				this.#remove(crashed, `crash loop: gave up after ${crashed.restarts} restarts`);
			},
		});
	}

	#becomeIdle(worker: SimWorker): void {
		this.#enter(worker, 'idle');
		this.#armIdle(worker);
		this.#options.onChange();
	}

	/** An idle worker waits out its idle timeout, or, on an older release, a few seconds before it is replaced. */
	#armIdle(worker: SimWorker): void {
		const {clock, spec} = this.#options;
		worker.timer?.cancel();
		if (worker.version < spec().version) {
			worker.timer = clock.setTimeout(
				() => {
					this.#remove(worker, `replaced by release v${spec().version}`);
				},
				this.#side.int(2000, 15_000),
			);
			return;
		}

		worker.timer = clock.setTimeout(() => {
			this.#idleTimedOut(worker);
		}, spec().idleTimeout * 1000);
	}

	/** Workers that count against the endpoint's limits: all but the unhealthy ones. */
	#active(): number {
		return this.#workers.size - this.#tally.unhealthy;
	}

	#idleTimedOut(worker: SimWorker): void {
		if (worker.state === 'idle' && this.#active() > this.#options.spec().workersMin) {
			this.#remove(worker, 'scaled down after its idle timeout');
		}
	}

	/** The worker goes: its log says why and ends (its streams end; it is 404 from now on). */
	#remove(worker: SimWorker, reason: string): void {
		worker.timer?.cancel();
		if (this.#workers.delete(worker.id)) {
			this.#tally[worker.state]--;
			this.journal.stopped(worker, this.#options.clock.now(), reason);
			worker.logs.close();
			this.#metered(worker, true);
		}

		this.#options.onChange();
	}

	#enter(worker: SimWorker, state: WorkerState): void {
		worker.timer?.cancel();
		worker.timer = undefined;
		this.#tally[worker.state]--;
		this.#tally[state]++;
		worker.state = state;
		worker.since = this.#options.clock.now();
		this.#metered(worker, false);
	}
}

import type {SimClock, SimTimer} from './clock.js';
import type {EndpointSpec} from './endpoint-spec.js';
import {createWorkerId} from './ids.js';
import type {Random} from './random.js';

export const workerStates = ['initializing', 'idle', 'running', 'throttled', 'unhealthy'] as const;
export type WorkerState = (typeof workerStates)[number];

export type SimWorker = {
	readonly id: string;
	state: WorkerState;
	/** Simulated time the worker entered its state. */
	since: number;
	jobId?: string;
	timer?: SimTimer;
};

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
};

const unhealthyChance = 0.01;

/**
An endpoint's workers between workersMin and workersMax: cold starts (initializing), idle,
running, scale-up on demand, scale-down after the idle timeout, throttled while a GPU is not
free (more likely near the maximum), and an occasional unhealthy worker that is replaced.
*/
export class WorkerPool {
	readonly #options: PoolOptions;
	readonly #workers = new Map<string, SimWorker>();
	/** Workers per state, kept as they change (the scaler asks on every queue change). */
	readonly #tally: Record<WorkerState, number> = {initializing: 0, idle: 0, running: 0, throttled: 0, unhealthy: 0};

	constructor(options: PoolOptions) {
		this.#options = options;
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

	/** A worker's job ended: it idles (rarely it turns unhealthy and is replaced), or goes when the endpoint is over its maximum. */
	release(worker: SimWorker): void {
		worker.jobId = undefined;
		if (this.#active() > this.#options.spec().workersMax) {
			this.#remove(worker);
			return;
		}

		if (this.#options.random.chance(unhealthyChance)) {
			this.#enter(worker, 'unhealthy');
			worker.timer = this.#options.clock.setTimeout(
				() => {
					this.#remove(worker);
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
		const spare = counts.idle + counts.initializing + counts.throttled;
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
	go when their job ends), and idle workers restart their idle timeout against the new minimum.
	*/
	rescale(): void {
		const order: readonly WorkerState[] = ['throttled', 'initializing', 'idle'];
		for (const state of order) {
			for (const worker of this.#workers.values()) {
				if (worker.state === state && this.#active() > this.#options.spec().workersMax) {
					this.#remove(worker);
				}
			}
		}

		for (const worker of this.#workers.values()) {
			if (worker.state === 'idle') {
				worker.timer?.cancel();
				worker.timer = this.#options.clock.setTimeout(() => {
					this.#idleTimedOut(worker);
				}, this.#options.spec().idleTimeout * 1000);
			}
		}
	}

	/** Starts with workersMin workers already warm (a fleet that has been running for a while). */
	warmStart(): void {
		const {clock, random, spec} = this.#options;
		while (this.#active() < spec().workersMin) {
			const worker: SimWorker = {id: createWorkerId(random), state: 'idle', since: clock.now()};
			this.#workers.set(worker.id, worker);
			this.#tally.idle++;
			this.#becomeIdle(worker);
		}
	}

	/** Stops every timer; the pool is not used again. */
	dispose(): void {
		for (const worker of this.#workers.values()) {
			worker.timer?.cancel();
		}

		this.#workers.clear();
		for (const state of workerStates) {
			this.#tally[state] = 0;
		}
	}

	#add(atMaximum: boolean): void {
		const {clock, random} = this.#options;
		const worker: SimWorker = {id: createWorkerId(random), state: 'initializing', since: clock.now()};
		this.#workers.set(worker.id, worker);
		this.#tally.initializing++;
		if (random.chance(atMaximum ? 0.4 : 0.1)) {
			this.#enter(worker, 'throttled');
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
		const coldStartMs = spec().flashBoot ? random.int(800, 3000) : random.int(4000, 18_000);
		worker.timer = clock.setTimeout(() => {
			this.#becomeIdle(worker);
		}, coldStartMs);
	}

	#becomeIdle(worker: SimWorker): void {
		const {clock, spec, onChange} = this.#options;
		this.#enter(worker, 'idle');
		worker.timer = clock.setTimeout(() => {
			this.#idleTimedOut(worker);
		}, spec().idleTimeout * 1000);
		onChange();
	}

	/** Workers that count against the endpoint's limits: all but the unhealthy ones. */
	#active(): number {
		return this.#workers.size - this.#tally.unhealthy;
	}

	#idleTimedOut(worker: SimWorker): void {
		if (worker.state === 'idle' && this.#active() > this.#options.spec().workersMin) {
			this.#remove(worker);
		}
	}

	#remove(worker: SimWorker): void {
		worker.timer?.cancel();
		if (this.#workers.delete(worker.id)) {
			this.#tally[worker.state]--;
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
	}
}

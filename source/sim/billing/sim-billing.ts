import type {SimClock} from '../clock.js';
import type {SimPod} from '../pods/pod.js';
import type {SimWorker} from '../sim-worker.js';
import {billingComponents} from './components.js';
import {BillingLedger} from './ledger.js';
import {billedHistoryMs, billingRunMs} from './prices.js';
import {podRates, volumeRates, workerRates} from './rates.js';

/** A worker's change as its pool reports it: the GPUs each of its endpoint's workers has, whether it went, and when. */
export type WorkerChange = {readonly gpuCount: number; readonly removed: boolean; readonly at: number};

/**
The simulated service's billing: the fleet reports each change (a pod started or stopped, a worker placed
or gone) and the ledger keeps what each resource paid and when. The fleet the simulator starts with is
billed for what it did before (a pod running for days, a stopped pod's volume, warm workers) as far as
`billedHistoryMs` back. Bills show whole 5-minute runs: what ran after the last one closed is not billed yet.
*/
export class SimBilling {
	readonly ledger = new BillingLedger();
	/** The first moment bills reach back to. */
	readonly horizon: number;
	/** The simulator's first moment: the balance counts what was billed after it. */
	readonly origin: number;
	readonly #clock: SimClock;
	#founding = true;

	constructor(clock: SimClock) {
		this.#clock = clock;
		this.origin = clock.now();
		this.horizon = this.origin - billedHistoryMs;
	}

	/** The fleet the simulator starts with has been reported: what comes next happens now. */
	founded(): void {
		this.#founding = false;
	}

	/** A pod changed (`since`: for the founding fleet, when it started its current state, if known). */
	pod(pod: SimPod, since?: number): void {
		this.ledger.set('pod', pod.id, pod.id, podRates(pod), this.#at(since));
	}

	worker(endpointId: string, worker: SimWorker, {gpuCount, removed, at}: WorkerChange): void {
		this.ledger.set('serverless', endpointId, worker.id, workerRates(worker, gpuCount, removed), Math.max(this.horizon, at));
	}

	/** A network volume the fleet names: billed from now on (from the horizon for the founding fleet's). */
	volume(id: string): void {
		this.ledger.set('volume', id, id, volumeRates(), this.#at());
	}

	/** Bills cover time up to here: the end of the last 5-minute run that has closed. */
	billedUntil(): number {
		return Math.floor(this.#clock.now() / billingRunMs) * billingRunMs;
	}

	/** What has been billed between `from` and the end of the last closed run, in dollars. */
	billedSince(from: number): number {
		const until = this.billedUntil();
		if (until <= from) {
			return 0;
		}

		let sum = 0;
		for (const buckets of this.ledger.amounts([from, until], until, billingComponents).values()) {
			sum += buckets[0]!.reduce((total, amount) => total + amount, 0);
		}

		return sum;
	}

	#at(since?: number): number {
		if (!this.#founding) {
			return this.#clock.now();
		}

		return Math.max(this.horizon, Math.min(since ?? this.horizon, this.origin));
	}
}

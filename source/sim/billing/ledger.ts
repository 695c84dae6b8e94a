import {billingComponents, isFree, sameRates, type BilledKind, type BillingComponent, type Rates} from './components.js';

/** A span of simulated time in which one billed thing (a pod, one worker of an endpoint, a volume) paid the same rates. */
export type Segment = {
	readonly kind: BilledKind;
	/** The resource the bill names: a pod, an endpoint, a volume. */
	readonly id: string;
	/** What inside it paid (an endpoint's worker); the id itself otherwise. */
	readonly unit: string;
	readonly from: number;
	/** Undefined while it still runs. */
	to: number | undefined;
	readonly rates: Rates;
};

/** Per resource, per bucket, per component: dollars. */
export type BucketAmounts = Map<string, Float64Array[]>;

const hourMs = 3_600_000;

/**
What the account's resources paid and when, as spans of constant rates: a rate change (a pod stopped,
a worker placed or gone) ends one span and starts the next, so a pod running for days is one span and a
bill over any window is exact, whatever its buckets.
*/
export class BillingLedger {
	readonly #closed: Segment[] = [];
	readonly #open = new Map<string, Segment>();

	/** From `at` on, `unit` of `id` pays `rates` (nothing, when they are all zero). */
	set(kind: BilledKind, id: string, unit: string, rates: Rates, at: number): void {
		const key = `${kind}\u0000${id}\u0000${unit}`;
		const current = this.#open.get(key);
		if (current && sameRates(current.rates, rates)) {
			return;
		}

		if (current) {
			this.#open.delete(key);
			current.to = Math.max(current.from, at);
			if (current.to > current.from) {
				this.#closed.push(current);
			}
		}

		if (!isFree(rates)) {
			this.#open.set(key, {kind, id, unit, from: at, to: undefined, rates});
		}
	}

	/** What the account pays per hour now, by everything still running. */
	ratePerHour(): number {
		let sum = 0;
		for (const segment of this.#open.values()) {
			for (const component of billingComponents) {
				sum += segment.rates[component] ?? 0;
			}
		}

		return sum;
	}

	*segments(kind?: BilledKind, id?: string): Iterable<Segment> {
		for (const source of [this.#closed, this.#open.values()]) {
			for (const segment of source) {
				if ((kind === undefined || segment.kind === kind) && (id === undefined || segment.id === id)) {
					yield segment;
				}
			}
		}
	}

	/**
	What each resource paid in each bucket (`bounds` are the buckets' edges, n + 1 of them, ascending), counting only
	time before `until` (what has been billed). Keyed by resource id; the kind's components in `components` order.
	*/
	amounts(bounds: readonly number[], until: number, components: readonly BillingComponent[], kind?: BilledKind, id?: string): BucketAmounts {
		const result: BucketAmounts = new Map();
		const first = bounds[0]!;
		const last = Math.min(bounds.at(-1)!, until);
		for (const segment of this.segments(kind, id)) {
			const from = Math.max(segment.from, first);
			const to = Math.min(segment.to ?? Number.POSITIVE_INFINITY, last);
			if (to <= from) {
				continue;
			}

			let buckets = result.get(segment.id);
			if (!buckets) {
				buckets = Array.from({length: bounds.length - 1}, () => new Float64Array(components.length));
				result.set(segment.id, buckets);
			}

			for (let index = bucketIndex(bounds, from); index < bounds.length - 1 && bounds[index]! < to; index++) {
				const hours = (Math.min(to, bounds[index + 1]!) - Math.max(from, bounds[index]!)) / hourMs;
				const row = buckets[index]!;
				for (const [column, component] of components.entries()) {
					row[column]! += (segment.rates[component] ?? 0) * hours;
				}
			}
		}

		return result;
	}
}

/** The bucket `time` falls in: the last edge at or before it. */
function bucketIndex(bounds: readonly number[], time: number): number {
	let low = 0;
	let high = bounds.length - 2;
	while (low < high) {
		const middle = Math.ceil((low + high) / 2);
		if (bounds[middle]! <= time) {
			low = middle;
		} else {
			high = middle - 1;
		}
	}

	return low;
}

import {SlidingWindow} from '../lib/sliding-window.js';
import type {BudgetLimit} from './budget-limits.js';
import {budgetMoved} from './budget-change.js';
import type {Budget, BudgetSnapshot} from './budget.js';

export type {BudgetSnapshot} from './budget.js';

const backoffBaseMs = 1000;
const backoffCapMs = 60_000;

/**
One (endpoint, operation) budget, or GraphQL's: a sliding window and a concurrency cap, plus the
backoff in force after a 429. Every podtop loop that touches the same resource shares it.
*/
/** How much later than it was sent a request may arrive and still not crowd the next window. */
export const arrivalMarginMs = 250;

export class RateBudget implements Budget {
	readonly key: string;
	readonly limit: BudgetLimit;
	readonly #window: SlidingWindow;
	readonly #random: () => number;
	#inFlight = 0;
	/** When the last request may have reached the service: its start, then its answer once it came. */
	#lastArrival = Number.NEGATIVE_INFINITY;
	#backoffUntil = 0;
	#attempt = 0;

	constructor(key: string, limit: BudgetLimit, random: () => number = Math.random) {
		this.key = key;
		this.limit = limit;
		// A request counts a little longer than the window: the service counts arrivals, and a request
		// that took longer on the way than the one a window later would otherwise share its window.
		this.#window = new SlidingWindow(limit.windowMs + arrivalMarginMs);
		this.#random = random;
	}

	/** The milliseconds until a slot is free (0: one is free now), taking nothing. */
	waitMs(now: number): number {
		if (now < this.#backoffUntil) {
			return this.#backoffUntil - now;
		}

		if (this.#window.count(now) >= this.limit.perWindow) {
			return Math.max(1, this.#window.msUntilSlotFrees(now));
		}

		return this.#inFlight >= this.limit.concurrency ? Number.POSITIVE_INFINITY : 0;
	}

	/** Takes a slot when one is free now and returns 0; otherwise the milliseconds to wait. */
	tryAcquire(now: number): number {
		if (now < this.#backoffUntil) {
			return this.#backoffUntil - now;
		}

		if (this.#inFlight >= this.limit.concurrency) {
			return Number.POSITIVE_INFINITY;
		}

		if (this.#window.count(now) >= this.limit.perWindow) {
			return Math.max(1, this.#window.msUntilSlotFrees(now));
		}

		const spacing = (this.limit.minIntervalMs ?? 0) - (now - this.#lastArrival);
		if (spacing > 0) {
			return spacing;
		}

		this.#lastArrival = now;
		this.#window.add(now);
		this.#inFlight++;
		return 0;
	}

	/**
	A request taken at `startedAt` ended at `now`. It counts from its end from then on: the service
	counts arrivals, and a request delayed on the way (a busy event loop, a slow network) arrived as
	late as its answer came, so a slot freed by its send time alone could put two in one of its windows.
	The spacing between requests (`minIntervalMs`) counts from its end too: a service that held three
	podtops' requests for two seconds, then answered them together, got their next three at once
	(GraphQL: six in one second of its count, where each podtop meant one).
	*/
	release(startedAt?: number, now?: number): void {
		this.#inFlight = Math.max(0, this.#inFlight - 1);
		if (startedAt !== undefined && now !== undefined && now > startedAt) {
			this.#window.move(startedAt, now);
			this.#lastArrival = Math.max(this.#lastArrival, now);
		}
	}

	/** The service said 429: wait `retryAfterMs` when it said how long, else back off exponentially with full jitter. */
	rateLimited(now: number, retryAfterMs?: number): number {
		const delay = retryAfterMs ?? this.#random() * Math.min(backoffCapMs, backoffBaseMs * 2 ** this.#attempt);
		this.#attempt = Math.min(this.#attempt + 1, 16);
		this.#backoffUntil = Math.max(this.#backoffUntil, now + delay);
		return delay;
	}

	succeeded(): void {
		this.#attempt = 0;
	}

	/** Whether it moved enough to show since `before` (see budgetMoved), with no snapshot made. */
	movedFrom(before: BudgetSnapshot | undefined, now: number): boolean {
		return budgetMoved(before, this.#window.count(now), this.limit.perWindow, this.#backoffUntil > now);
	}

	snapshot(now: number): BudgetSnapshot {
		return {
			key: this.key,
			used: this.#window.count(now),
			allowed: this.limit.perWindow,
			windowMs: this.limit.windowMs,
			inFlight: this.#inFlight,
			concurrency: this.limit.concurrency,
			...(this.#backoffUntil > now ? {backoffUntil: this.#backoffUntil} : {}),
		};
	}
}

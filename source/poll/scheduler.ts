import {setMaxListeners} from 'node:events';
import {SlidingWindow} from '../lib/sliding-window.js';
import {ApiError} from '../api/errors.js';
import {readRateLimitHeaders, type HeaderReader} from '../api/rate-limit-headers.js';
import type {Budget, BudgetSnapshot} from './budget.js';
import {budgetLimit, defaultBudgetSettings, type BudgetLimit, type BudgetSettings, type JobOperationGroup} from './budget-limits.js';
import {RateBudget} from './rate-budget.js';
import {ServiceBudget} from './service-budget.js';

/** A user's action first, then what is on screen, then background refresh. */
export type Priority = 'action' | 'visible' | 'background';
const rank: Record<Priority, number> = {action: 0, visible: 1, background: 2};

/** The management API's budget (REST v2): planned inside the windows the service states on every answer. */
export const v2BudgetKey = 'v2';

/** A v2 answer as its client saw it: the status and the headers (a WHATWG `Headers`, or anything with its `get`). */
export type ServiceAnswer = {readonly status: number; readonly headers: HeaderReader};

export type Task<T> = {
	/** Budget key: `<endpointId>:<group>`, `graphql` or `v2`. */
	readonly budget: string;
	readonly priority: Priority;
	/** Requests with the same key share one flight: everyone gets the same answer. */
	readonly coalesce?: string;
	/** Reads may be retried after 429, 5xx, network errors and timeouts; writes never are. */
	readonly idempotent: boolean;
	readonly run: (signal: AbortSignal) => Promise<T>;
	/** Refuse at once, without sending, when the budget has no slot now (rather than wait for one). */
	readonly refuseWhenFull?: boolean;
};

type Pending = {
	readonly task: Task<unknown>;
	priority: Priority;
	attempts: number;
	notBefore: number;
	readonly resolve: (value: unknown) => void;
	readonly reject: (error: unknown) => void;
	readonly promise: Promise<unknown>;
};

const transientKinds = new Set(['server', 'network', 'timeout']);
/** Attempts for a read hit by 5xx, network errors or timeouts, before the caller hears of it. */
const transientAttempts = 2;
/** Attempts for a read hit by 429s before the caller hears of it. */
const rateLimitedAttempts = 6;

export function budgetKey(endpointId: string, group: JobOperationGroup): string {
	return `${endpointId}:${group}`;
}

/**
Runs every request podtop makes: within its budget, highest priority first, coalesced, with
backoff after 429s (Retry-After when given, full jitter otherwise) and retries for reads only.
Nothing here uses setInterval: one timer per budget waits for the next free slot.
*/
export class Scheduler {
	readonly #limitFor: (key: string) => BudgetLimit;
	readonly #serviceShare: number;
	readonly #random: () => number;
	readonly #now: () => number;
	readonly #budgets = new Map<string, Budget>();
	readonly #queues = new Map<string, Pending[]>();
	readonly #timers = new Map<string, NodeJS.Timeout>();
	readonly #coalesced = new Map<string, Pending>();
	/**
	Every request's signal, aborted by `stop()`: one for all (a controller made per request was 600 a
	minute at 500 endpoints, each an EventTarget). Any number of requests may listen to it at once.
	*/
	readonly #stopping = new AbortController();
	/** The 429s of the last hour, by wall-clock time (`podtop doctor` asks the agent for them). */
	readonly #rateLimited = new SlidingWindow(3_600_000);
	#lastRateLimitedAt: number | undefined;
	#stopped = false;

	constructor(options: {settings?: BudgetSettings; limitFor?: (key: string) => BudgetLimit; random?: () => number; now?: () => number} = {}) {
		const settings = options.settings ?? defaultBudgetSettings;
		this.#limitFor =
			options.limitFor ?? (key => budgetLimit(key === 'graphql' ? 'graphql' : (key.slice(key.lastIndexOf(':') + 1) as JobOperationGroup), settings));
		this.#serviceShare = settings.serviceShare;
		this.#random = options.random ?? Math.random;
		this.#now = options.now ?? (() => performance.now());
		setMaxListeners(0, this.#stopping.signal);
	}

	/** How many 429s the service answered in the last hour, and when the last came (epoch ms). */
	rateLimitedRecently(): {readonly lastHour: number; readonly lastAt: number | undefined} {
		return {lastHour: this.#rateLimited.count(Date.now()), lastAt: this.#lastRateLimitedAt};
	}

	async submit<T>(task: Task<T>): Promise<T> {
		if (this.#stopped) {
			throw new ApiError('aborted', 'podtop is shutting down');
		}

		if (task.coalesce) {
			const existing = this.#coalesced.get(task.coalesce);
			if (existing) {
				if (rank[task.priority] < rank[existing.priority]) {
					existing.priority = task.priority;
				}

				return existing.promise as Promise<T>;
			}
		}

		if (task.refuseWhenFull) {
			const waitMs = this.#budget(task.budget).waitMs(this.#now(), task.priority === 'action');
			if (waitMs > 0) {
				const wait = Number.isFinite(waitMs) ? `try again in ${Math.ceil(waitMs / 1000)} s` : 'one is still in flight';
				throw new ApiError('rate-limited', `over the service's limit for ${task.budget.slice(task.budget.lastIndexOf(':') + 1)}: not sent; ${wait}`, {
					retryAfterMs: Number.isFinite(waitMs) ? waitMs : undefined,
				});
			}
		}

		let resolve!: (value: unknown) => void;
		let reject!: (error: unknown) => void;
		const promise = new Promise<unknown>((resolve_, reject_) => {
			resolve = resolve_;
			reject = reject_;
		});
		const pending: Pending = {task, priority: task.priority, attempts: 0, notBefore: 0, resolve, reject, promise};
		if (task.coalesce) {
			this.#coalesced.set(task.coalesce, pending);
			const forget = () => {
				if (this.#coalesced.get(task.coalesce!) === pending) {
					this.#coalesced.delete(task.coalesce!);
				}
			};

			promise.then(forget, forget);
		}

		this.#enqueue(pending);
		return promise as Promise<T>;
	}

	/**
	Whether any budget moved enough to show since `published` (which held `publishedCount`
	budgets), found without making a snapshot: asked every second, over a budget per endpoint.
	*/
	movedSince(published: Readonly<Record<string, BudgetSnapshot>>, publishedCount: number): boolean {
		if (this.#budgets.size !== publishedCount) {
			return true;
		}

		const now = this.#now();
		let moved = false;
		for (const budget of this.#budgets.values()) {
			moved ||= budget.movedFrom(published[budget.key], now);
		}

		return moved;
	}

	/**
	What a v2 answer said of the budget (`RateLimit`, `RateLimit-Policy`, `Retry-After`): the v2 client's
	`onAnswer` hook, called after every answer (429s and empty-bodied edge answers too), before the
	request returns or throws. Malformed or missing headers never throw: the budget falls back to conservative spacing.
	*/
	observe(key: typeof v2BudgetKey, answer: ServiceAnswer): void {
		const budget = this.#budget(key);
		if (budget instanceof ServiceBudget) {
			budget.observe(readRateLimitHeaders(answer.headers), answer.status, this.#now());
		}
	}

	/** Budgets as they stand, for the UI. */
	snapshot(): Record<string, BudgetSnapshot> {
		const now = this.#now();
		return Object.fromEntries([...this.#budgets].map(([key, budget]) => [key, budget.snapshot(now)]));
	}

	/** Aborts requests in flight and rejects everything queued. */
	stop(): void {
		this.#stopped = true;
		for (const timer of this.#timers.values()) {
			clearTimeout(timer);
		}

		this.#timers.clear();
		this.#stopping.abort();

		for (const queue of this.#queues.values()) {
			for (const pending of queue) {
				pending.reject(new ApiError('aborted', 'podtop is shutting down'));
			}
		}

		this.#queues.clear();
	}

	#budget(key: string): Budget {
		let budget = this.#budgets.get(key);
		if (!budget) {
			budget = key === v2BudgetKey ? new ServiceBudget(key, this.#serviceShare, this.#random) : new RateBudget(key, this.#limitFor(key), this.#random);
			this.#budgets.set(key, budget);
		}

		return budget;
	}

	#enqueue(pending: Pending): void {
		const key = pending.task.budget;
		const queue = this.#queues.get(key) ?? [];
		queue.push(pending);
		this.#queues.set(key, queue);
		this.#pump(key);
	}

	/** Starts what the budget allows now; otherwise arms one timer for when it will. */
	#pump(key: string): void {
		if (this.#stopped) {
			return;
		}

		const queue = this.#queues.get(key);
		const budget = this.#budget(key);
		// eslint-disable-next-line no-unmodified-loop-condition -- the loop takes from `queue` (splice) or returns
		while (queue && queue.length > 0) {
			const now = this.#now();
			queue.sort((a, b) => rank[a.priority] - rank[b.priority] || a.notBefore - b.notBefore);
			const ready = queue.findIndex(pending => pending.notBefore <= now);
			if (ready === -1) {
				this.#arm(key, Math.min(...queue.map(pending => pending.notBefore)) - now);
				return;
			}

			// A user's action skips the spreading a budget may ask of polls (v2's), never its share.
			const wait = budget.tryAcquire(now, queue[ready]!.priority === 'action');
			if (wait > 0) {
				// Infinity: the concurrency cap is full; a finishing request pumps again.
				if (Number.isFinite(wait)) {
					this.#arm(key, wait);
				}

				return;
			}

			const [pending] = queue.splice(ready, 1);
			void this.#execute(key, budget, pending!, now);
		}
	}

	#arm(key: string, delayMs: number): void {
		const existing = this.#timers.get(key);
		if (existing) {
			clearTimeout(existing);
		}

		this.#timers.set(
			key,
			setTimeout(
				() => {
					this.#timers.delete(key);
					this.#pump(key);
				},
				Math.max(1, Math.ceil(delayMs)),
			),
		);
	}

	async #execute(key: string, budget: Budget, pending: Pending, startedAt: number): Promise<void> {
		pending.attempts++;
		try {
			const value = await pending.task.run(this.#stopping.signal);
			budget.succeeded();
			pending.resolve(value);
		} catch (error) {
			this.#failed(budget, pending, error);
		} finally {
			budget.release(startedAt, this.#now());
			this.#pump(key);
		}
	}

	#failed(budget: Budget, pending: Pending, error: unknown): void {
		const now = this.#now();
		if (this.#stopped || !(error instanceof ApiError)) {
			pending.reject(error);
			return;
		}

		if (error.kind === 'rate-limited') {
			this.#lastRateLimitedAt = Date.now();
			this.#rateLimited.add(this.#lastRateLimitedAt);
			budget.rateLimited(now, error.retryAfterMs);
			if (pending.task.idempotent && pending.attempts < rateLimitedAttempts) {
				this.#requeue(pending, now);
				return;
			}
		} else if (transientKinds.has(error.kind) && pending.task.idempotent && pending.attempts < transientAttempts) {
			// Full jitter on this request alone: other requests of the budget are not to blame.
			this.#requeue(pending, now + this.#random() * 500 * 2 ** pending.attempts);
			return;
		}

		pending.reject(error);
	}

	#requeue(pending: Pending, notBefore: number): void {
		pending.notBefore = notBefore;
		const queue = this.#queues.get(pending.task.budget) ?? [];
		queue.push(pending);
		this.#queues.set(pending.task.budget, queue);
	}
}

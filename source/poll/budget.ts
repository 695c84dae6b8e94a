import type {BudgetState} from '../store/types.js';

/** What a budget publishes: the store's shape, so the UI reads exactly what the scheduler knows. */
export type BudgetSnapshot = BudgetState;

/** What the scheduler asks of a budget: a fixed one of its own (RateBudget) or one planned inside the service's windows (ServiceBudget). */
export type Budget = {
	readonly key: string;
	/** The milliseconds until a slot is free (0: one is free now), taking nothing. */
	waitMs(now: number, urgent?: boolean): number;
	/** Takes a slot when one is free now and returns 0; otherwise the milliseconds to wait (Infinity: until a request ends). `urgent`: a user's action. */
	tryAcquire(now: number, urgent?: boolean): number;
	/** A request taken at `startedAt` ended at `now`. */
	release(startedAt?: number, now?: number): void;
	/** The service said 429: wait `retryAfterMs` when it said how long (or longer when it said more). */
	rateLimited(now: number, retryAfterMs?: number): number;
	succeeded(): void;
	movedFrom(before: BudgetSnapshot | undefined, now: number): boolean;
	snapshot(now: number): BudgetSnapshot;
};

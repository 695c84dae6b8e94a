/** The service's published per-endpoint limits (requests per 10 s, concurrent requests). */
const published = {
	run: {perWindow: 1000, concurrent: 200},
	runsync: {perWindow: 2000, concurrent: 400},
	status: {perWindow: 2000, concurrent: 400},
	stream: {perWindow: 2000, concurrent: 400},
	compat: {perWindow: 2000, concurrent: 400},
	cancel: {perWindow: 100, concurrent: 20},
	'purge-queue': {perWindow: 2, concurrent: 1},
	retry: {perWindow: 100, concurrent: 20},
} as const;

export type JobOperationGroup = keyof typeof published | 'health';

export type BudgetLimit = {
	readonly perWindow: number;
	readonly windowMs: number;
	readonly concurrency: number;
	/** Least time between two request starts: spreads a window's requests instead of bursting them. */
	readonly minIntervalMs?: number;
};

export type BudgetSettings = {
	/** Share of each published limit podtop may use (default 0.1). */
	readonly share: number;
	/** `/health` has no published limit: requests per 10 s per endpoint podtop allows itself. */
	readonly healthPerWindow: number;
	/** GraphQL publishes no limit: requests per 10 s podtop allows itself, all operations together. */
	readonly graphqlPerWindow: number;
	/** Share of each of v2's windows (minute, hour, day) podtop may use (default 0.5: other tools share the key). */
	readonly serviceShare: number;
};

export const defaultBudgetSettings: BudgetSettings = {share: 0.1, healthPerWindow: 10, graphqlPerWindow: 10, serviceShare: 0.5};

const windowMs = 10_000;

/** The budget podtop keeps for a job operation group on one endpoint, or for GraphQL. */
export function budgetLimit(group: JobOperationGroup | 'graphql', settings: BudgetSettings): BudgetLimit {
	if (group === 'graphql') {
		// No published limit, and the service may count per second: never burst, one at a time, and
		// spaced a fifth more than the window needs, so network jitter cannot land two requests of one
		// podtop in the same second of the service's count.
		return {perWindow: settings.graphqlPerWindow, windowMs, concurrency: 1, minIntervalMs: (windowMs / settings.graphqlPerWindow) * 1.2};
	}

	if (group === 'health') {
		return {perWindow: settings.healthPerWindow, windowMs, concurrency: 1};
	}

	const limit = published[group];
	if (group === 'purge-queue') {
		// Only a person purges, rarely: the whole published limit (2 per 10 s), one at a time.
		return {perWindow: limit.perWindow, windowMs, concurrency: limit.concurrent};
	}

	return {
		perWindow: Math.max(1, Math.floor(limit.perWindow * settings.share)),
		windowMs,
		concurrency: Math.max(1, Math.floor(limit.concurrent * settings.share)),
	};
}

import {foldColumns, type Columns, type TimedPoint} from '../../format/chart-columns.js';
import {counterRates} from '../../format/counter-rates.js';
import type {ChartGrid} from '../../format/chart-grid.js';
import {kindFields} from '../../history/fields.js';
import type {HealthSample} from '../../store/types.js';

export const workerStates = ['running', 'idle', 'initializing', 'throttled', 'unhealthy'] as const;
export type WorkerState = (typeof workerStates)[number];

/** An endpoint's history in a chart's columns: the queue, the workers by state, and jobs finished and failed per minute. */
export type EndpointColumns = {
	readonly inQueue: Columns;
	readonly inProgress: Columns;
	readonly workers: Readonly<Record<WorkerState, Columns>>;
	/** Jobs finished (completed and failed) per minute, from the counters' growth in each column. */
	readonly finished: ReadonlyArray<number | null>;
	readonly failed: ReadonlyArray<number | null>;
	/** The failed share of all the jobs finished in the window; undefined when none finished. */
	readonly failureShare: number | undefined;
	/** Jobs finished and failed per minute over the whole window (where it was recorded). */
	readonly finishedMean: number | undefined;
	readonly failedMean: number | undefined;
};

const sum = (values: ReadonlyArray<number | null>) => values.reduce<number>((total, value) => total + (value ?? 0), 0);

/** The mean of the known values; undefined when none is. */
export function meanOf(values: ReadonlyArray<number | null>): number | undefined {
	const known = values.filter((value): value is number => value !== null);
	return known.length === 0 ? undefined : sum(known) / known.length;
}

/**
Folds an endpoint's points (fields named by `fields`, each `spanMs` wide) into the grid, up to `to`.
The counters' rates read the points before the grid too, so the first column has a rate.
*/
export function endpointColumns(
	points: readonly TimedPoint[],
	fields: readonly string[],
	grid: ChartGrid,
	holdMs: number,
	spanMs = 0,
	to?: number,
): EndpointColumns {
	const fold = (name: string) => foldColumns(points, grid, fields.indexOf(name), holdMs);
	const rates = (name: string) => counterRates(points, fields.indexOf(name), grid, {holdMs, spanMs, to});

	const completed = rates('completed');
	const failed = rates('failed');
	const finished = completed.map((value, index) => {
		const failures = failed[index] ?? null;
		return value === null || failures === null ? null : value + failures;
	});
	const failedTotal = sum(failed);
	const finishedTotal = sum(failed) + sum(completed);
	const workers = Object.fromEntries(workerStates.map(state => [state, fold(state)])) as Record<WorkerState, Columns>;
	return {
		inQueue: fold('inQueue'),
		inProgress: fold('inProgress'),
		workers,
		finished,
		failed,
		failureShare: finishedTotal > 0 ? failedTotal / finishedTotal : undefined,
		finishedMean: meanOf(finished),
		failedMean: meanOf(failed),
	};
}

/** The store's in-memory health samples (about ten minutes) as points, for when there is no history to read. */
export function memoryPoints(history: readonly HealthSample[]): {points: TimedPoint[]; fields: readonly string[]} {
	const fields = kindFields.endpoint;
	const points = history.map(sample => {
		const values = fields.map(field => {
			const value = (sample as Record<string, unknown>)[field];
			return typeof value === 'number' ? value : null;
		});
		return {at: sample.at, count: 1, min: values, mean: values, max: values, last: values};
	});
	return {points, fields};
}

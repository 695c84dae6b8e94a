import type {ChartGrid} from './chart-grid.js';

type Values = ReadonlyArray<number | null>;

/** A point of a recorded series (the shape history answers with): a sample, or a summary of a bucket starting at `at`. */
export type TimedPoint = {
	readonly at: number;
	readonly count: number;
	readonly state?: string | undefined;
	readonly min: Values;
	readonly mean: Values;
	readonly max: Values;
	readonly last: Values;
};

/** One figure per column: null where nothing is known (a gap, drawn as one; never zero). */
export type Columns = {
	readonly mean: Array<number | null>;
	readonly min: Array<number | null>;
	readonly max: Array<number | null>;
	readonly last: Array<number | null>;
	/** When the newest point of the column was taken (its `at`); null where the value is carried or unknown. */
	readonly lastAt: Array<number | null>;
};

/** Which figure of a point to fold: a field's position, or a figure made of several (a pod's GPUs averaged). */
export type FieldPick = number | ((values: Values) => number | null);

const picker = (field: FieldPick) => (typeof field === 'number' ? (values: Values) => values[field] ?? null : field);

const nulls = (length: number): Array<number | null> => Array.from({length}, () => null);

/**
Folds points into the grid's columns: each column the min of the mins, the max of the maxes, the
mean weighted by how many samples each point holds, and the newest last value. History records a
thing only when it changes (and whole once a minute), so a column without a point carries the value
before it for up to `holdMs`; past that, or where a point says the figure was not known then, it is
a gap. Points before the grid only seed that carry.
*/
export function foldColumns(points: readonly TimedPoint[], grid: ChartGrid, field: FieldPick, holdMs: number): Columns {
	const pick = picker(field);
	const {start, columnMs, columns} = grid;
	const result: Columns = {mean: nulls(columns), min: nulls(columns), max: nulls(columns), last: nulls(columns), lastAt: nulls(columns)};
	let index = 0;
	// The value carried into the next columns and when it was taken (undefined: none), as two numbers: no object a point
	// (a Pods pane's trend cells fold a few hundred points a row at every poll).
	let previousValue: number | undefined;
	let previousAt = 0;
	for (let column = 0; column < columns; column++) {
		const from = start + column * columnMs;
		const to = from + columnMs;
		let low: number | undefined;
		let high: number | undefined;
		let sum = 0;
		let counted = 0;
		let lastValue: number | undefined;
		let lastAt = 0;
		let seen = false;
		for (; index < points.length && points[index]!.at < to; index++) {
			const point = points[index]!;
			const value = pick(point.last);
			if (point.at < from) {
				previousValue = value ?? undefined;
				previousAt = point.at;
				continue;
			}

			seen = true;
			// A raw sample's four figures are one list: picked once.
			const lowest = point.min === point.last ? value : pick(point.min);
			const highest = point.max === point.last ? value : pick(point.max);
			const mean = point.mean === point.last ? value : pick(point.mean);
			if (lowest !== null) {
				low = low === undefined ? lowest : Math.min(low, lowest);
			}

			if (highest !== null) {
				high = high === undefined ? highest : Math.max(high, highest);
			}

			if (mean !== null) {
				sum += mean * Math.max(1, point.count);
				counted += Math.max(1, point.count);
			}

			lastValue = value ?? undefined;
			lastAt = point.at;
		}

		if (seen) {
			if (counted > 0) {
				result.mean[column] = sum / counted;
				result.min[column] = low ?? null;
				result.max[column] = high ?? null;
			}

			result.last[column] = lastValue ?? null;
			result.lastAt[column] = lastValue === undefined ? null : lastAt;
			// A point that says the figure was unknown then (a stopped pod's GPUs) ends the carry.
			previousValue = lastValue;
			previousAt = lastAt;
		} else if (previousValue !== undefined && from - previousAt <= holdMs) {
			result.mean[column] = previousValue;
			result.min[column] = previousValue;
			result.max[column] = previousValue;
			result.last[column] = previousValue;
		}
	}

	return result;
}

/** The categorical state at the end of each column (a GPU type's stock word), carried like the figures; undefined in gaps. */
export function foldStates(points: readonly TimedPoint[], grid: ChartGrid, holdMs: number): Array<string | undefined> {
	const {start, columnMs, columns} = grid;
	const states: Array<string | undefined> = Array.from({length: columns}, () => undefined);
	let index = 0;
	let previous: {state: string; at: number} | undefined;
	for (let column = 0; column < columns; column++) {
		const from = start + column * columnMs;
		const to = from + columnMs;
		let seen = false;
		for (; index < points.length && points[index]!.at < to; index++) {
			const point = points[index]!;
			previous = point.state === undefined ? undefined : {state: point.state, at: point.at};
			seen ||= point.at >= from;
		}

		if (seen) {
			states[column] = previous?.state;
		} else if (previous && from - previous.at <= holdMs) {
			states[column] = previous.state;
		}
	}

	return states;
}

/** The newest known value of columns (what a legend says now); null when none is known. */
export const lastKnown = (values: ReadonlyArray<number | null>): number | null => values.findLast(value => value !== null) ?? null;

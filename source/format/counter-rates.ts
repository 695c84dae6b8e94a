import type {TimedPoint} from './chart-columns.js';
import type {ChartGrid} from './chart-grid.js';

/**
How fast a cumulative counter (field `field` of `points`, each a bucket `spanMs` wide) grew, per
minute, in each column of `grid`. A bucket is read at its end; one still open at `to` (the newest,
begun seconds ago) is left out until it closes: its reading holds growth from a poll up to a bucket
older, and spread over the seconds since it began it drew spikes of 50 times the rate (or over a
whole bucket, a rate a quarter short). Each reading's growth since the one before is spread over the
columns from the one after that reading to its own, so a poll every 30 s drawn in 5-s columns is a
steady rate, not a comb; a column holding several readings (points of a minute in columns of 75 s)
gets all their growth over all their time. A drop means the counter started again from zero (a
recreated endpoint): the growth is the new value, never negative work. Columns before the first
reading, after the last, and across a gap (an unknown value, or no reading for over `holdMs`) are gaps.
*/
export function counterRates(
	points: readonly TimedPoint[],
	field: number,
	grid: ChartGrid,
	{
		holdMs = Number.POSITIVE_INFINITY,
		spanMs = 0,
		to = Number.POSITIVE_INFINITY,
	}: {readonly holdMs?: number; readonly spanMs?: number; readonly to?: number} = {},
): Array<number | null> {
	const {start, columnMs, columns} = grid;
	const growths = Array.from({length: columns}, () => 0);
	const durations = Array.from({length: columns}, () => 0);
	let previous: {value: number; at: number; time: number; column: number} | undefined;
	for (const point of points) {
		const column = Math.floor((point.at - start) / columnMs);
		if (column >= columns) {
			break;
		}

		const value = point.last[field] ?? null;
		if (value === null) {
			previous = undefined;
			continue;
		}

		// A column between the two readings that starts more than `holdMs` after the first is a gap.
		if (previous && column - 1 > previous.column && start + (column - 1) * columnMs - previous.at > holdMs) {
			previous = undefined;
		}

		const time = point.at + spanMs;
		if (time > to) {
			break;
		}

		if (previous && time > previous.time && column >= 0) {
			const growth = value >= previous.value ? value - previous.value : value;
			const duration = time - previous.time;
			const first = Math.max(0, Math.min(previous.column + 1, column));
			const share = column - first + 1;
			for (let index = first; index <= column; index++) {
				growths[index]! += growth / share;
				durations[index]! += duration / share;
			}
		}

		previous = {value, at: point.at, time, column};
	}

	return durations.map((duration, index) => (duration > 0 ? (growths[index]! / duration) * 60_000 : null));
}

/**
How fast a cumulative counter grew, per minute, in each column: between two readings (a column's
newest point, taken at `lastAt` plus `spanMs`, the width of the points, at most `to`) the growth
over the time between them, spread over the columns from the one after the first reading to the
one of the second, so a poll every 30 s drawn in 5-s columns is a steady rate, not a comb. A
reading covers at least its own `spanMs`: the newest point's bucket has only begun (read at `to`,
a second after the one before it), but its growth came from a poll that may be most of a bucket
older, so it is not spread over that second (a spike of 50 times the rate). A drop
means the counter started again from zero (a recreated endpoint): the growth is the new value,
never negative work. Columns before the first reading, after the last, and around a gap are gaps.
*/
export function counterRates(
	last: ReadonlyArray<number | null>,
	lastAt: ReadonlyArray<number | null>,
	spanMs = 0,
	to = Number.POSITIVE_INFINITY,
): Array<number | null> {
	const rates: Array<number | null> = last.map(() => null);
	let previous: {value: number; time: number; column: number} | undefined;
	for (const [column, value] of last.entries()) {
		const at = lastAt[column] ?? null;
		if (value === null) {
			previous = undefined;
			continue;
		}

		// A value carried from an earlier reading: its rate comes with the next reading.
		if (at === null) {
			continue;
		}

		const time = Math.min(at + spanMs, to);
		if (previous && time > previous.time) {
			const growth = value >= previous.value ? value - previous.value : value;
			const rate = (growth / Math.max(time - previous.time, spanMs)) * 60_000;
			for (let index = previous.column + 1; index <= column; index++) {
				rates[index] = rate;
			}
		}

		previous = {value, time, column};
	}

	return rates;
}

/** Columns added together; a gap in any is a gap. */
export function addColumns(...series: ReadonlyArray<ReadonlyArray<number | null>>): Array<number | null> {
	const length = Math.max(0, ...series.map(values => values.length));
	return Array.from({length}, (_, index) => {
		let total = 0;
		for (const values of series) {
			const value = values[index] ?? null;
			if (value === null) {
				return null;
			}

			total += value;
		}

		return total;
	});
}

/** The failed share (0..1) of what finished in each column; a gap where nothing finished (no jobs is not 0 % failing). */
export function failureShares(failed: ReadonlyArray<number | null>, completed: ReadonlyArray<number | null>): Array<number | null> {
	return failed.map((value, index) => {
		const done = completed[index] ?? null;
		if (value === null || done === null || value + done <= 0) {
			return null;
		}

		return value / (value + done);
	});
}

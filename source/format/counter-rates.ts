/**
How much a cumulative counter grew in each column, per minute, from its value at the end of each
column. The first column has nothing before it (ask for a column more on the left to get its
rate). A drop means the counter started again from zero (a recreated endpoint): the growth is the
new value, never negative work. A gap on either side is a gap.
*/
export function counterRates(ends: ReadonlyArray<number | null>, columnMs: number): Array<number | null> {
	return ends.map((value, index) => {
		const before = index === 0 ? null : (ends[index - 1] ?? null);
		if (value === null || before === null) {
			return null;
		}

		const growth = value >= before ? value - before : value;
		return (growth / columnMs) * 60_000;
	});
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

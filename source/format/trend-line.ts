/**
A one-line trend for a table cell: one character per value, as tall as the value between `min` and
`max` in `levels` (lowest first). A known value shows at least the lowest level, so zero is seen;
a gap (nothing recorded) is a blank.
*/
export function trendLine(values: ReadonlyArray<number | null>, levels: readonly string[], min: number, max: number): string {
	const top = levels.length - 1;
	const span = max - min;
	return values
		.map(value => {
			if (value === null) {
				return ' ';
			}

			const level = span <= 0 ? 0 : Math.round(((value - min) / span) * top);
			return levels[Math.max(0, Math.min(top, level))]!;
		})
		.join('');
}

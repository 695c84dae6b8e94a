/** The columns a time chart is drawn over: `columns` of `columnMs` each, the first starting at `start`. */
export type ChartGrid = {
	readonly start: number;
	readonly columnMs: number;
	readonly columns: number;
};

const secondMs = 1000;
const minuteMs = 60_000;
const hourMs = 3_600_000;

/**
The grid of a window of `windowMs` drawn in `columns` columns and ending at `end`. Columns are
whole milliseconds wide and aligned to the epoch, so a chart redrawn later moves by whole columns
and never shimmers; the last column holds `end`.
*/
export function chartGrid(windowMs: number, columns: number, end: number): ChartGrid {
	const count = Math.max(1, Math.floor(columns));
	const columnMs = Math.max(1, Math.ceil(windowMs / count));
	const last = Math.floor(end / columnMs) * columnMs;
	return {start: last - (count - 1) * columnMs, columnMs, columns: count};
}

/** When the grid's columns end: the right edge of the chart. */
export const gridEnd = (grid: ChartGrid) => grid.start + grid.columns * grid.columnMs;

/**
The step to ask history for, for columns `columnMs` wide: the widest that nests in the stored tiers
(whole seconds of raw samples, whole minutes, whole hours) and is no wider than a column. Every
column then holds the start of at least one point, and there are at most two points per column.
*/
export function pointStep(columnMs: number): number {
	const unit = columnMs >= hourMs ? hourMs : columnMs >= minuteMs ? minuteMs : secondMs;
	return Math.max(secondMs, Math.floor(columnMs / unit) * unit);
}

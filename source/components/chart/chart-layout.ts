/** Where a set of charts goes in a box: how many side by side, how wide each, how many plot rows, how many fit. */
export type ChartLayout = {
	readonly perRow: number;
	readonly cellWidth: number;
	readonly plotRows: number;
	/** How many of the charts fit (the first ones); the rest are left out. */
	readonly shown: number;
	/** Lines the charts take, their shared time axis included. */
	readonly lines: number;
};

/** Columns between charts side by side. */
export const chartGap = 2;

type Options = {
	/** The narrowest a chart may be to stand beside another. */
	readonly minWidth?: number;
	/** The tallest plot worth drawing; more room is left to what comes after. */
	readonly maxPlotRows?: number;
	/** The most charts side by side (four read best two by two). */
	readonly maxPerRow?: number;
};

/**
Lays `count` charts out in `width` × `height`: side by side while each keeps `minWidth` columns,
each a title line and its plot, one time axis under the last row (they share the window). When even
one plot row each does not fit, the last charts are left out.
*/
export function chartLayout(count: number, width: number, height: number, {minWidth = 34, maxPlotRows = 12, maxPerRow = 4}: Options = {}): ChartLayout {
	const perRow = Math.max(1, Math.min(count, maxPerRow, Math.floor((width + chartGap) / (minWidth + chartGap))));
	const cellWidth = Math.floor((width - (perRow - 1) * chartGap) / perRow);
	const room = height - 1;
	let rows = Math.ceil(count / perRow);
	while (rows > 0 && Math.floor(room / rows) < 2) {
		rows--;
	}

	if (rows === 0 || count === 0) {
		return {perRow, cellWidth, plotRows: 0, shown: 0, lines: 0};
	}

	const plotRows = Math.min(maxPlotRows, Math.floor(room / rows) - 1);
	return {perRow, cellWidth, plotRows, shown: Math.min(count, rows * perRow), lines: rows * (plotRows + 1) + 1};
}

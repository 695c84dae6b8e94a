import {valueRange} from '../../format/axis-values.js';
import {foldColumns, foldStates} from '../../format/chart-columns.js';
import type {Glyphs} from '../../format/glyphs.js';
import {trendLine} from '../../format/trend-line.js';
import type {Series, SeriesKind} from '../../history/history-types.js';
import {stockRank} from '../../rows/gpu-rows.js';
import type {StockStatus} from '../../store/types.js';
import type {ListPane} from '../../view-state/view-state.js';
import type {SeriesAnswer} from '../use-series/index.js';

/** A trend column of a list pane, drawn from history: which column (by title), and how a row's series becomes its cell. */
export type TrendColumn = {
	readonly title: string;
	readonly cell: (series: Series, answer: SeriesAnswer, glyphs: Glyphs) => string | undefined;
};

/** What each list pane's trends are series of. */
export const trendKinds: Readonly<Record<ListPane, SeriesKind>> = {endpoints: 'endpoint', pods: 'pod', gpus: 'gpu'};

/** A line of the known values, scaled to the row's own range; undefined when nothing is known (the row keeps its own cell). */
function line(values: ReadonlyArray<number | null>, glyphs: Glyphs, options?: Parameters<typeof valueRange>[1]): string | undefined {
	const range = valueRange([values], options);
	return range ? trendLine(values, glyphs.spark, range.min, range.max) : undefined;
}

const field = (series: Series, name: string) => series.fields.indexOf(name);

/** A pod's GPUs' mean utilisation at a point (its `gpuN.util` fields); null when none is known. */
function meanGpuUtil(series: Series): (values: ReadonlyArray<number | null>) => number | null {
	const positions = series.fields.flatMap((name, index) => (name.endsWith('.util') ? [index] : []));
	// A plain loop: it runs for each point of each row on screen at every poll, and made two lists a point.
	return values => {
		let sum = 0;
		let known = 0;
		for (const position of positions) {
			const value = values[position];
			if (typeof value === 'number') {
				sum += value;
				known++;
			}
		}

		return known === 0 ? null : sum / known;
	};
}

/** High, Medium, Low and None as tall, middle, short and flat, as the stock column always drew them. */
const stockLevel = (state: string | undefined): number | null => {
	const rank = stockRank[(state ?? 'Unknown') as StockStatus];
	return rank === undefined || rank < 0 ? null : rank * 2 + (rank > 0 ? 1 : 0);
};

export const trendColumns: Readonly<Record<ListPane, readonly TrendColumn[]>> = {
	endpoints: ['QUEUE TREND', 'TREND'].map(title => ({
		title,
		cell: (series, {grid, holdMs}, glyphs) => line(foldColumns(series.points, grid, field(series, 'inQueue'), holdMs).mean, glyphs, {whole: true}),
	})),
	pods: [
		{
			title: 'UTIL HISTORY',
			cell: (series, {grid, holdMs}, glyphs) => line(foldColumns(series.points, grid, meanGpuUtil(series), holdMs).mean, glyphs, {ceiling: 100}),
		},
	],
	gpus: [
		{
			title: 'STOCK TREND',
			cell(series, {grid, holdMs}, glyphs) {
				const levels = foldStates(series.points, grid, holdMs).map(state => stockLevel(state));
				return levels.some(level => level !== null) ? trendLine(levels, glyphs.spark, 0, glyphs.spark.length - 1) : undefined;
			},
		},
		{
			title: 'SPOT TREND',
			cell: (series, {grid, holdMs}, glyphs) => line(foldColumns(series.points, grid, field(series, 'minimumBid'), holdMs).mean, glyphs, {fromZero: false}),
		},
	],
};

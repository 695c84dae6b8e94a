import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {formatAxisValue, valueRange} from '../../source/format/axis-values.js';
import {foldColumns, foldStates, type TimedPoint} from '../../source/format/chart-columns.js';
import {chartGrid, gridEnd, pointStep} from '../../source/format/chart-grid.js';
import {cellRuns, drawChart, type ChartLayer} from '../../source/format/chart-raster.js';
import {counterRates} from '../../source/format/counter-rates.js';
import {tickLabel, timeAxis} from '../../source/format/time-axis.js';
import {trendLine} from '../../source/format/trend-line.js';

const text = (rows: ReturnType<typeof drawChart>) => rows.map(row => row.map(cell => cell.char).join(''));

const sample = (at: number, values: Array<number | null>, state?: string): TimedPoint => ({
	at,
	count: 1,
	state,
	min: values,
	mean: values,
	max: values,
	last: values,
});

describe('braille, block and ASCII charts', () => {
	test('a line and an area of 0 1 2 3 in two braille cells, dot for dot', () => {
		const line: ChartLayer = {kind: 'line', values: [0, 1, 2, 3]};
		// Left dot at the bottom and right dot one up (⡠), then two up and at the top (⠊).
		expect(text(drawChart({layers: [line], style: 'braille', width: 2, height: 1, min: 0, max: 3}))).toEqual(['⡠⠊']);
		const area: ChartLayer = {kind: 'area', values: [0, 1, 2, 3]};
		expect(text(drawChart({layers: [area], style: 'braille', width: 2, height: 1, min: 0, max: 3}))).toEqual(['⣠⣾']);
	});

	test('a steep line is joined by a vertical run over two rows; a zero shows, a gap does not', () => {
		const rows = text(drawChart({layers: [{kind: 'line', values: [0, 7]}], style: 'braille', width: 1, height: 2, min: 0, max: 7}));
		// The right column climbs from one above the left dot to the top, over both cells.
		expect(rows).toEqual(['⢸', '⡸']);
		const gaps = text(drawChart({layers: [{kind: 'area', values: [0, null, null, 0]}], style: 'braille', width: 2, height: 1, min: 0, max: 3}));
		expect(gaps).toEqual(['⡀⢀']);
		const none = text(drawChart({layers: [{kind: 'area', values: [null, null]}], style: 'braille', width: 1, height: 1, min: 0, max: 3}));
		expect(none).toEqual([' ']);
	});

	test('stacked layers: each cell shows the first layer with a dot in it; runs keep layers apart', () => {
		// Running 2 at the bottom, idle 1 above it (a stack), in one cell column of blocks, 2 rows (16 eighths).
		const running: ChartLayer = {kind: 'stack', values: [2]};
		const idle: ChartLayer = {kind: 'stack', values: [3], bottom: [2]};
		const rows = drawChart({layers: [idle, running], style: 'blocks', width: 1, height: 2, min: 0, max: 3});
		expect(text(rows)).toEqual(['█', '█']);
		expect(rows.map(row => row[0]!.layer)).toEqual([0, 1]);
		const runs = cellRuns(drawChart({layers: [{kind: 'area', values: [1, 1, null, 3]}], style: 'blocks', width: 4, height: 1, min: 0, max: 3})[0]!);
		expect(runs).toEqual([{text: '▃▃ █', layer: 0}]);
	});

	test('a min–max band under its mean line, the line winning the cells it shares', () => {
		const band: ChartLayer = {kind: 'band', values: [3, 3], bottom: [0, 1]};
		const mean: ChartLayer = {kind: 'line', values: [1, 2]};
		const rows = drawChart({layers: [mean, band], style: 'braille', width: 1, height: 1, min: 0, max: 3});
		expect(text(rows)).toEqual([String.fromCodePoint(0x28_7f)]);
		expect(rows[0]![0]!.layer).toBe(0);
	});

	test('ASCII: # full, . the lower half, * a line', () => {
		expect(text(drawChart({layers: [{kind: 'area', values: [0, 1, 2, 3, null]}], style: 'ascii', width: 5, height: 2, min: 0, max: 3}))).toEqual([
			'  .# ',
			'.### ',
		]);
		expect(text(drawChart({layers: [{kind: 'line', values: [0, 3]}], style: 'ascii', width: 2, height: 2, min: 0, max: 3}))).toEqual([' *', '**']);
	});
});

describe('axes', () => {
	const zone = process.env.TZ;
	beforeAll(() => {
		process.env.TZ = 'UTC';
	});
	afterAll(() => {
		process.env.TZ = zone;
	});

	test('time labels on round times, as close as they fit', () => {
		const from = Date.parse('2026-11-20T03:00:00Z');
		// An hour in 40 columns: a label every 15 minutes fits (5 characters and 2 spaces in 10).
		expect(timeAxis(from, from + 3_600_000, 40)).toBe('03:00     03:15     03:30     03:45     ');
		// The same hour in 20 columns: every 30 minutes.
		expect(timeAxis(from, from + 3_600_000, 20)).toBe('03:00     03:30     ');
		// Six hours from 03:10 in 30 columns: every 2 hours, on the hour.
		expect(timeAxis(from + 600_000, from + 600_000 + 6 * 3_600_000, 30)).toBe('    04:00     06:00     08:00 ');
	});

	test('days from a week on, seconds under a minute apart', () => {
		const from = Date.parse('2026-11-20T00:00:00Z');
		const axis = timeAxis(from, from + 7 * 86_400_000, 60);
		expect(axis.trim().split(/\s+/).slice(0, 4)).toEqual(['Nov', '20', 'Nov', '21']);
		expect(tickLabel(from + 12_500, 10_000)).toBe('00:00:12');
	});

	test('values: compact counts, percentages, dollars, rates; a range from zero, or from the lowest price', () => {
		expect(formatAxisValue(1234, 'count')).toBe('1.2k');
		expect(formatAxisValue(0.5, 'count')).toBe('0.5');
		expect(formatAxisValue(42.4, 'percent')).toBe('42%');
		expect(formatAxisValue(0.25, 'share')).toBe('25%');
		expect(formatAxisValue(2.49, 'dollars')).toBe('$2.49');
		expect(formatAxisValue(3.25, 'rate')).toBe('3.3/m');
		expect(formatAxisValue(null, 'rate')).toBe('–');
		expect(valueRange([[3, null, 12], [5]])).toEqual({min: 0, max: 12});
		expect(valueRange([[0, 0]])).toEqual({min: 0, max: 1});
		expect(valueRange([[40, 90]], {ceiling: 100})).toEqual({min: 0, max: 100});
		expect(valueRange([[2.39, 2.49]], {fromZero: false})).toEqual({min: 2.39, max: 2.49});
		expect(valueRange([[null]])).toBeUndefined();
	});
});

describe('points into columns', () => {
	test('a grid ends at the column holding the end, aligned to the epoch; the step nests in the tiers', () => {
		const grid = chartGrid(3_600_000, 60, 1_000_030_000);
		expect(grid.columnMs).toBe(60_000);
		expect(grid.start % 60_000).toBe(0);
		expect(gridEnd(grid)).toBeGreaterThan(1_000_030_000);
		expect(gridEnd(grid) - grid.start).toBe(3_600_000);
		expect(pointStep(52_900)).toBe(52_000);
		expect(pointStep(119_000)).toBe(60_000);
		expect(pointStep(7 * 3_600_000 + 5)).toBe(7 * 3_600_000);
	});

	test('min, max, weighted mean and last per column; unchanged values carried, a long silence a gap', () => {
		const grid = {start: 0, columnMs: 10_000, columns: 6};
		const points = [
			sample(-5000, [7]),
			sample(1000, [1]),
			sample(4000, [5]),
			{at: 12_000, count: 3, min: [2], mean: [4], max: [6], last: [3]},
			{at: 15_000, count: 1, min: [10], mean: [10], max: [10], last: [10]},
			// 20–30 s: nothing recorded, the value unchanged (carried). 30–60 s: past the hold, a gap.
		];
		const columns = foldColumns(points, grid, 0, 12_000);
		expect(columns.min).toEqual([1, 2, 10, null, null, null]);
		expect(columns.max).toEqual([5, 10, 10, null, null, null]);
		expect(columns.mean).toEqual([3, 5.5, 10, null, null, null]);
		expect(columns.last).toEqual([5, 10, 10, null, null, null]);
		// Before the first point of the grid, the one before it is carried in.
		expect(foldColumns([sample(-5000, [7]), sample(25_000, [1])], grid, 0, 15_000).last).toEqual([7, 7, 1, 1, 1, null]);
	});

	test('a point that does not know the figure (a stopped pod) is a gap, not the value before it', () => {
		const grid = {start: 0, columnMs: 10_000, columns: 3};
		const columns = foldColumns([sample(0, [90]), sample(11_000, [null]), sample(21_000, [null])], grid, 0, 60_000);
		expect(columns.last).toEqual([90, null, null]);
		expect(foldStates([sample(0, [1], 'High'), sample(11_000, [1], 'Low')], grid, 60_000)).toEqual(['High', 'Low', 'Low']);
		// A figure made of several fields: the mean of two GPUs.
		const twoGpus = foldColumns([sample(0, [40, 60])], grid, values => ((values[0] ?? 0) + (values[1] ?? 0)) / 2, 0);
		expect(twoGpus.last).toEqual([50, null, null]);
	});

	test('counters become rates per minute; a reset starts again from zero; no jobs is no failure share', () => {
		// A reading each second given (null: none), the counter's value `values[i]`, in 30-s columns unless told.
		const readings = (values: Array<number | null>, seconds: Array<number | null>) =>
			seconds.flatMap((second, index) => (second === null ? [] : [sample(second * 1000, [values[index] ?? null])]));
		const grid = (columnMs: number, columns: number, start = 0) => ({start, columnMs, columns});
		// Readings 30 s apart, one a column: +10, +0, then a drop to 5 (started again: 5 since), then a gap.
		expect(counterRates(readings([10, 20, 20, 5, null, 9], [0, 30, 60, 90, 120, 150]), 0, grid(30_000, 6))).toEqual([null, 20, 0, 10, null, null]);
		// A reading every 30 s drawn in 10-s columns: a steady 20 a minute, not a comb.
		expect(counterRates(readings([10, 20, 30], [0, 30, 60]), 0, grid(10_000, 7))).toEqual([null, 20, 20, 20, 20, 20, 20]);
		// No reading for longer than the hold: a gap, not a rate spread over it.
		expect(counterRates(readings([10, 20], [0, 60]), 0, grid(10_000, 7), {holdMs: 30_000})).toEqual([null, null, null, null, null, null, null]);
		// Points that summarise 10 s (a bucket's start): read at their end, 20 s apart.
		expect(counterRates(readings([0, 10], [0, 20]), 0, grid(10_000, 3), {spanMs: 10_000, to: 30_000})).toEqual([null, 30, 30]);
		// The newest bucket began half a second ago: left out until it closes (spread over that half second it was 1,200 a minute).
		expect(counterRates(readings([0, 10, 20], [0, 10, 20]), 0, grid(10_000, 3), {spanMs: 10_000, to: 20_500})).toEqual([null, 60, null]);
		// Minute points (polls at :00 and :30) in 75-s columns, the newest open, then the live reading: 30 a minute, not 45 (CI).
		const minutes = readings([2640, 2670, 2700, 2715, 2715], [-180, -120, -60, 0, 0.1]);
		expect(counterRates(minutes, 0, grid(75_000, 2, -135_000), {spanMs: 60_000, to: 100})).toEqual([30, 30]);
	});
});

describe('trends in a table cell', () => {
	test('one character per value, zero the lowest bar, a gap blank', () => {
		const levels = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
		expect(trendLine([0, null, 7, 3.5, null], levels, 0, 7)).toBe('▁ █▅ ');
		expect(trendLine([2, 2], ['_', '#'], 2, 2)).toBe('__');
	});
});

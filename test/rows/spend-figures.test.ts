import {describe, expect, test} from 'vitest';
import {chartBuckets, gutterDollars, spendFigures, spendQueries, stackedColumns, type SpendRow} from '../../source/rows/spend-figures.js';

const hour = 3_600_000;
const day = 24 * hour;
// Wednesday 2026-11-18 10:30 UTC.
const now = Date.UTC(2026, 10, 18, 10, 30);

const bill = (from: number, length: number, byCategory: SpendRow['byCategory']): SpendRow => ({
	from,
	to: from + length,
	total: Object.values(byCategory).reduce((sum, value) => sum + (value ?? 0), 0),
	byCategory,
});

describe('the Spend pane figures', () => {
	test('the reads: the account by hour at 24h reaching back to the month start, by day otherwise; the resources over the window in its buckets', () => {
		const hourly = spendQueries('24h', now);
		expect(hourly.account).toEqual({bucketSize: 'hour', from: Date.UTC(2026, 10, 1), to: Date.UTC(2026, 10, 18, 11)});
		expect(hourly.resources).toEqual({bucketSize: 'hour', from: Date.UTC(2026, 10, 17, 11), to: Date.UTC(2026, 10, 18, 11)});
		const early = spendQueries('7d', Date.UTC(2026, 10, 3, 5));
		// The daily read (30 days, for 7d and 30d alike) reaches into October: the same day last week is in it.
		expect(early.account).toEqual({bucketSize: 'day', from: Date.UTC(2026, 9, 5), to: Date.UTC(2026, 10, 4)});
		expect(spendQueries('1y', now).resources).toEqual({bucketSize: 'month', from: Date.UTC(2025, 11, 1), to: Date.UTC(2026, 11, 1)});
	});

	test('7d and 30d are one daily read (the 30 days), each window starting where it does', () => {
		const week = spendQueries('7d', now);
		const month = spendQueries('30d', now);
		expect(week.account).toEqual(month.account);
		expect(week.resources).toEqual({bucketSize: 'day', from: Date.UTC(2026, 9, 20), to: Date.UTC(2026, 10, 19)});
		expect(month.resources).toEqual(week.resources);
		expect(week.from).toBe(Date.UTC(2026, 10, 12));
		expect(month.from).toBe(Date.UTC(2026, 9, 20));
	});

	test('today, yesterday, the same day last week, month to date, and the forecast at the $/h now to the month end', () => {
		const rows = [
			bill(Date.UTC(2026, 9, 31), day, {podGpu: 100}),
			bill(Date.UTC(2026, 10, 11), day, {podGpu: 7}),
			bill(Date.UTC(2026, 10, 17), day, {podGpu: 20, storageStandard: 1}),
			bill(Date.UTC(2026, 10, 18), day, {podGpu: 10}),
		];
		const figures = spendFigures(rows, now, 2);
		expect(figures).toMatchObject({today: 10, yesterday: 21, lastWeek: 7, monthToDate: 38});
		// 12 days 13.5 hours to December: 301.5 hours at $2/h.
		expect(figures.forecast).toBeCloseTo(38 + 301.5 * 2, 6);
		expect(spendFigures(rows, now, undefined).forecast).toBeUndefined();
	});

	test('the chart: every bucket of the window, days summed into months for 1y, the groups stacked', () => {
		const rows = [bill(Date.UTC(2026, 10, 2), day, {podGpu: 3, serverlessFee: 1}), bill(Date.UTC(2026, 10, 18), day, {podGpu: 2, podDisk: 1})];
		const {from} = spendQueries('1y', now);
		const buckets = chartBuckets(rows, '1y', from);
		expect(buckets).toHaveLength(12);
		expect(buckets.at(-1)).toEqual({from: Date.UTC(2026, 10, 1), groups: [5, 1, 0, 1, 0, 0]});
		expect(buckets.slice(0, -1).every(bucket => bucket.groups.every(value => value === 0))).toBe(true);
		const [gpu, cpu] = stackedColumns(buckets.slice(-1), 2);
		expect(gpu).toEqual({top: [5, 5], bottom: [0, 0]});
		expect(cpu).toEqual({top: [6, 6], bottom: [5, 5]});
		expect(chartBuckets([], '24h', spendQueries('24h', now).from)).toHaveLength(24);
	});

	test('dollars in the chart gutter take at most 6 columns', () => {
		expect([0.5, 34.12, 813.14, 3661.88, 12_345].map(value => gutterDollars(value))).toEqual(['$0.50', '$34', '$813', '$3.7k', '$12k']);
	});
});

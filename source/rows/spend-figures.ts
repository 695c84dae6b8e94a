import type {SpendBucketSize, SpendCategory, SpendQuery} from '../model/spend.js';
import type {SpendWindowName} from '../view-state/view-state.js';
import {dayMs, hourMs, utcDay, utcHour, utcMonth} from '../store/month-forecast.js';
import type {Tone} from './row.js';

export {spendFigures, type SpendFigures} from '../store/month-forecast.js';

/** A bucket of bills as the engine reads them (the account's, or one resource's). */
export type SpendRow = {
	readonly from: number;
	readonly to: number;
	readonly total: number;
	readonly byCategory: Readonly<Partial<Record<SpendCategory, number>>>;
};

/** What each window of the Spend pane charts: its buckets, how many. */
export const spendWindowBuckets: Readonly<Record<SpendWindowName, {readonly bucketSize: SpendBucketSize; readonly count: number}>> = {
	'24h': {bucketSize: 'hour', count: 24},
	'7d': {bucketSize: 'day', count: 7},
	'30d': {bucketSize: 'day', count: 30},
	'1y': {bucketSize: 'month', count: 12},
};

/** The chart's groups of the service's categories, bottom of the stack first. */
export const spendGroups: ReadonlyArray<{readonly label: string; readonly tone: Tone; readonly categories: readonly SpendCategory[]}> = [
	{label: 'pod GPU', tone: 'accent', categories: ['podGpu']},
	{label: 'pod CPU+disk', tone: 'muted', categories: ['podCpu', 'podDisk']},
	{label: 'serverless GPU', tone: 'good', categories: ['serverlessGpu']},
	{label: 'serverless CPU+disk+fee', tone: 'warn', categories: ['serverlessCpu', 'serverlessDisk', 'serverlessFee', 'publicEndpoint']},
	{label: 'storage', tone: 'bad', categories: ['storageStandard', 'storageHighPerformance']},
	{label: 'clusters', tone: 'muted', categories: ['clusterGpu', 'clusterDisk', 'clusterNetworking']},
];

/**
The two reads of the pane, in UTC buckets: the account's (one read: hourly at 24h, daily otherwise, reaching back to
the start of the month and a week before today so the day figures and month to date come from it too), and the
resources' over the window itself (7d and 30d: over 30 days, one read for both). `from` is where the window starts.
*/
export function spendQueries(window: SpendWindowName, now: number): {readonly account: SpendQuery; readonly resources: SpendQuery; readonly from: number} {
	const {bucketSize, count} = spendWindowBuckets[window];
	const startOf = (buckets: number) =>
		bucketSize === 'hour' ? utcHour(now) - (buckets - 1) * hourMs : bucketSize === 'day' ? utcDay(now) - (buckets - 1) * dayMs : utcMonth(now, 1 - buckets);
	const from = startOf(count);
	// 7d and 30d share one daily read, the longest (their overlapping days are one answer): the shorter window is its tail.
	const readFrom =
		bucketSize === 'day' ? startOf(Math.max(...Object.values(spendWindowBuckets).flatMap(each => (each.bucketSize === 'day' ? [each.count] : [])))) : from;
	const reachBack = Math.min(readFrom, utcMonth(now), utcDay(now) - 7 * dayMs);
	const to = utcHour(now) + hourMs;
	const accountBucket = bucketSize === 'hour' ? 'hour' : 'day';
	return {
		account: {
			bucketSize: accountBucket,
			from: accountBucket === 'hour' ? reachBack : utcDay(reachBack),
			to: accountBucket === 'hour' ? to : utcDay(now) + dayMs,
		},
		resources: {bucketSize, from: readFrom, to: bucketSize === 'hour' ? to : bucketSize === 'day' ? utcDay(now) + dayMs : utcMonth(now, 1)},
		from,
	};
}

/** A bucket of the chart: its start and each group's dollars. */
export type ChartBucket = {readonly from: number; readonly groups: readonly number[]};

/** The window's buckets for the chart, every one present (a bucket the service did not list is $0); days summed into months for 1y. */
export function chartBuckets(rows: readonly SpendRow[], window: SpendWindowName, from: number): ChartBucket[] {
	const {bucketSize, count} = spendWindowBuckets[window];
	const starts = Array.from({length: count}, (_, index) =>
		bucketSize === 'hour' ? from + index * hourMs : bucketSize === 'day' ? from + index * dayMs : utcMonth(from, index),
	);
	const ends = starts.map(
		(start, index) => starts[index + 1] ?? (bucketSize === 'month' ? utcMonth(start, 1) : start + (bucketSize === 'hour' ? hourMs : dayMs)),
	);
	return starts.map((start, index) => ({
		from: start,
		groups: spendGroups.map(group =>
			rows.reduce(
				(sum, row) =>
					row.from >= start && row.from < ends[index]! ? sum + group.categories.reduce((part, category) => part + (row.byCategory[category] ?? 0), 0) : sum,
				0,
			),
		),
	}));
}

/** Stacked layers of the buckets spread over `columns` dot columns: each group's top, the group under it its bottom. */
export function stackedColumns(buckets: readonly ChartBucket[], columns: number): Array<{readonly top: number[]; readonly bottom: number[]}> {
	return spendGroups.map((_, group) => {
		const top: number[] = [];
		const bottom: number[] = [];
		for (let column = 0; column < columns; column++) {
			const bucket = buckets[Math.min(buckets.length - 1, Math.floor((column * buckets.length) / columns))];
			const under = bucket ? bucket.groups.slice(0, group).reduce((sum, value) => sum + value, 0) : 0;
			bottom.push(under);
			top.push(under + (bucket?.groups[group] ?? 0));
		}

		return {top, bottom};
	});
}

/** Dollars in the chart's 6-column gutter: `$3.41`, `$813`, `$3.7k`. */
export function gutterDollars(value: number): string {
	return value < 10 ? `$${value.toFixed(2)}` : value < 1000 ? `$${Math.round(value)}` : `$${(value / 1000).toFixed(value < 9950 ? 1 : 0)}k`;
}

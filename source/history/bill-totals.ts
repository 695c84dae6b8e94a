import {spendBucketSizes, spendCategories, type SpendBucketSize, type SpendResourceKind} from '../model/spend.js';
import type {RecordedBills} from './history-types.js';
import {hasBillTables, type BillRoute} from './bill-ledger.js';
import type {SqliteDatabase} from './history-file.js';
import {billColumn} from './schema.js';

const round = (amount: number) => Math.round(amount * 1e6) / 1e6;

const isKind = (route: string): route is SpendResourceKind => route !== 'account';

/**
The recorded bills of [from, to), summed in SQL (30 days of 10,000 pods are 300,000 rows: summed where they lie, not
parsed one by one). Undefined when no account bills of any size overlap the window.
*/
export function readBillTotals(db: SqliteDatabase, from: number, to: number): RecordedBills | undefined {
	if (!hasBillTables(db) || to <= from) {
		return undefined;
	}

	// How much of the window each size's account buckets cover.
	const covered = db
		.prepare(
			`SELECT size, sum(min(end, ?2) - max(start, ?1)), min(start), max(end) FROM bill_buckets WHERE route = 'account' AND end > ?1 AND start < ?2 GROUP BY size`,
		)
		.raw()
		.all(from, to) as Array<[SpendBucketSize, number, number, number]>;
	const [best] = covered
		.filter(([size]) => spendBucketSizes.includes(size))
		.sort((a, b) => b[1] - a[1] || spendBucketSizes.indexOf(a[0]) - spendBucketSizes.indexOf(b[0]));
	if (!best) {
		return undefined;
	}

	const [size, , start, end] = best;
	const kinds = (
		db.prepare(`SELECT DISTINCT route FROM bill_buckets WHERE size = ? AND start >= ? AND start < ? ORDER BY route`).raw().all(size, start, end) as Array<
			[BillRoute]
		>
	)
		.map(([route]) => route)
		.filter(route => isKind(route));
	const sums = spendCategories.map(category => `sum(${billColumn(category)})`).join(', ');
	const totals = db
		.prepare(`SELECT route, resource, sum(total), ${sums} FROM bill_rows WHERE size = ? AND start >= ? AND start < ? GROUP BY route, resource`)
		.raw()
		.all(size, start, end) as Array<[BillRoute, string, number, ...Array<number | null>]>;
	const lines = totals.map(([route, id, total, ...amounts]) => ({
		route,
		id,
		total: round(total),
		byCategory: Object.fromEntries(
			spendCategories.flatMap((category, index) => (typeof amounts[index] === 'number' ? [[category, round(amounts[index])]] : [])),
		),
	}));
	const account = lines.find(line => line.route === 'account');
	const resources = lines
		.flatMap(({route, id, total, byCategory}) => (isKind(route) ? [{kind: route, id, total, byCategory}] : []))
		.sort((a, b) => b.total - a.total || a.kind.localeCompare(b.kind) || a.id.localeCompare(b.id));
	return {size, from: start, to: end, account: {total: account?.total ?? 0, byCategory: account?.byCategory ?? {}}, kinds, resources};
}

import {spendBucketSizes, type SpendBucketSize, type SpendCategory, type SpendResourceKind} from '../model/spend.js';
import type {RecordedBills} from './history-types.js';
import {hasBillTables, type BillRoute} from './bill-ledger.js';
import type {SqliteDatabase} from './history-file.js';

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
			`SELECT size, sum(min(end, ?2) - max(start, ?1)), min(start), max(end) FROM bill_reads WHERE route = 'account' AND end > ?1 AND start < ?2 GROUP BY size`,
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
		db.prepare(`SELECT DISTINCT route FROM bill_reads WHERE size = ? AND start >= ? AND start < ? ORDER BY route`).raw().all(size, start, end) as Array<
			[BillRoute]
		>
	)
		.map(([route]) => route)
		.filter(route => isKind(route));
	const totals = db
		.prepare(`SELECT route, resource, sum(total) FROM bills WHERE size = ? AND start >= ? AND start < ? GROUP BY route, resource`)
		.raw()
		.all(size, start, end) as Array<[BillRoute, string, number]>;
	const amounts = db
		.prepare(
			`SELECT b.route, b.resource, a.key, sum(a.value) FROM bills b, json_each(b.amounts) a WHERE b.size = ? AND b.start >= ? AND b.start < ? AND a.type IN ('real', 'integer') GROUP BY b.route, b.resource, a.key`,
		)
		.raw()
		.all(size, start, end) as Array<[BillRoute, string, SpendCategory, number]>;
	const byResource = new Map<string, {route: BillRoute; id: string; total: number; byCategory: Partial<Record<SpendCategory, number>>}>();
	for (const [route, id, total] of totals) {
		byResource.set(`${route}\u0000${id}`, {route, id, total: round(total), byCategory: {}});
	}

	for (const [route, id, category, amount] of amounts) {
		const line = byResource.get(`${route}\u0000${id}`);
		if (line) {
			line.byCategory[category] = round(amount);
		}
	}

	const lines = [...byResource.values()];
	const account = lines.find(line => line.route === 'account');
	const resources = lines
		.flatMap(({route, id, total, byCategory}) => (isKind(route) ? [{kind: route, id, total, byCategory}] : []))
		.sort((a, b) => b.total - a.total || a.kind.localeCompare(b.kind) || a.id.localeCompare(b.id));
	return {size, from: start, to: end, account: {total: account?.total ?? 0, byCategory: account?.byCategory ?? {}}, kinds, resources};
}

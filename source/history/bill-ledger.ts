import type {SpendBucketSize, SpendCategory} from '../model/spend.js';
import type {SqliteDatabase} from './history-file.js';

/** Whose bills a row is: the account's (by category) or one kind of resource's (a row per resource). */
export type BillRoute = 'account' | 'pod' | 'endpoint' | 'volume' | 'cluster';

/** One resource's (or the account's, `resourceId` empty) amounts in one bucket, in dollars. */
export type BillRow = {readonly resourceId: string; readonly total: number; readonly byCategory: Readonly<Partial<Record<SpendCategory, number>>>};

/** One bucket as the service last gave it, and when it was read (a bucket read before it had settled is asked for again). */
export type StoredBill = {readonly from: number; readonly to: number; readonly readAt: number; readonly rows: readonly BillRow[]};

/** The bills kept in the history file: read by bucket, each bucket written whole (rewritten while it is open, never doubled). */
export type BillLedger = {
	/** False when another podtop holds the file: what is read is not kept. */
	readonly writable: boolean;
	/** The buckets of `size` read so far that start in [from, to), oldest first. */
	readonly read: (route: BillRoute, size: SpendBucketSize, from: number, to: number) => StoredBill[];
	/** Replaces each bucket's rows with the ones given (a resource gone from a bucket is gone from it here too). */
	readonly store: (route: BillRoute, size: SpendBucketSize, bills: readonly StoredBill[]) => void;
};

/** Whether the file has the bill tables (one written before bills were kept has none until it is opened for writing). */
export const hasBillTables = (db: SqliteDatabase) =>
	(db.prepare(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('bills', 'bill_reads')`).raw().get() as [number])[0] === 2;

function parseAmounts(text: string): Partial<Record<SpendCategory, number>> {
	try {
		const value = JSON.parse(text) as unknown;
		if (typeof value !== 'object' || value === null) {
			return {};
		}

		return Object.fromEntries(Object.entries(value).filter(([, amount]) => typeof amount === 'number' && Number.isFinite(amount)));
	} catch {
		return {};
	}
}

/** The ledger over a history file: `writable` when this process holds the file's writer lock. */
export function createBillLedger(db: SqliteDatabase, writable: boolean): BillLedger {
	type Statement = {readonly all: (...parameters: unknown[]) => unknown[]};
	/** Prepared once the tables are there (a file another podtop started before bills were kept has none until it writes some). */
	let statements: {readonly reads: Statement; readonly rows: Statement} | undefined;
	const prepared = () => {
		if (!statements && hasBillTables(db)) {
			statements = {
				reads: db.prepare(`SELECT start, end, read_at FROM bill_reads WHERE route = ? AND size = ? AND start >= ? AND start < ? ORDER BY start`).raw(),
				rows: db
					.prepare(`SELECT start, resource, total, amounts FROM bills WHERE route = ? AND size = ? AND start >= ? AND start < ? ORDER BY start, resource`)
					.raw(),
			};
		}

		return statements;
	};

	return {
		writable,
		read(route, size, from, to) {
			const ready = prepared();
			if (!ready) {
				return [];
			}

			const bills = new Map<number, {from: number; to: number; readAt: number; rows: BillRow[]}>();
			for (const [start, end, readAt] of ready.reads.all(route, size, from, to) as Array<[number, number, number]>) {
				bills.set(start, {from: start, to: end, readAt, rows: []});
			}

			for (const [start, resource, total, amounts] of ready.rows.all(route, size, from, to) as Array<[number, string, number, string]>) {
				bills.get(start)?.rows.push({resourceId: resource, total, byCategory: parseAmounts(amounts)});
			}

			return [...bills.values()];
		},
		store(route, size, bills) {
			if (!writable || bills.length === 0) {
				return;
			}

			const clear = db.prepare(`DELETE FROM bills WHERE route = ? AND size = ? AND start = ?`);
			const put = db.prepare(
				`INSERT INTO bills (route, size, start, resource, total, amounts) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (route, size, start, resource) DO UPDATE SET total = excluded.total, amounts = excluded.amounts`,
			);
			const mark = db.prepare(
				`INSERT INTO bill_reads (route, size, start, end, read_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (route, size, start) DO UPDATE SET end = excluded.end, read_at = excluded.read_at`,
			);
			db.exec('BEGIN');
			try {
				for (const bill of bills) {
					clear.run(route, size, bill.from);
					for (const row of bill.rows) {
						put.run(route, size, bill.from, row.resourceId, row.total, JSON.stringify(row.byCategory));
					}

					mark.run(route, size, bill.from, bill.to, bill.readAt);
				}

				db.exec('COMMIT');
			} catch (error) {
				db.exec('ROLLBACK');
				throw error;
			}
		},
	};
}

/** Deletes the bills past retention: hourly ones after `hourlyMs` (the minute tier's span), the rest after `longMs` (the hour tier's). */
export function pruneBills(db: SqliteDatabase, now: number, hourlyMs: number, longMs: number): void {
	if (!hasBillTables(db)) {
		return;
	}

	for (const [sizes, keep] of [
		[`size = 'hour'`, hourlyMs],
		[`size <> 'hour'`, longMs],
	] as const) {
		const cutoff = now - keep;
		db.prepare(`DELETE FROM bills WHERE ${sizes} AND start IN (SELECT start FROM bill_reads WHERE ${sizes} AND end < ?)`).run(cutoff);
		db.prepare(`DELETE FROM bill_reads WHERE ${sizes} AND end < ?`).run(cutoff);
	}
}

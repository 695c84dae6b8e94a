import {spendCategories, type SpendBucketSize, type SpendCategory} from '../model/spend.js';
import type {SqliteDatabase} from './history-file.js';
import {billColumn} from './schema.js';

/** Whose bills a row is: the account's (by category) or one kind of resource's (a row per resource). */
export type BillRoute = 'account' | 'pod' | 'endpoint' | 'volume' | 'cluster';

/** One resource's (or the account's, `resourceId` empty) amounts in one bucket, in dollars. */
export type BillRow = {readonly resourceId: string; readonly total: number; readonly byCategory: Readonly<Partial<Record<SpendCategory, number>>>};

/** One bucket as the service last gave it, and when it was read (a bucket read before it had settled is asked for again). */
export type StoredBill = {readonly from: number; readonly to: number; readonly readAt: number; readonly rows: readonly BillRow[]};

/** Buckets that start in [from, to), less those that start in [skip[0], skip[1]). */
export type BillSpan = {readonly from: number; readonly to: number; readonly skip?: readonly [number, number]};

/** A resource's sums from each start asked (undefined when it has no row from there), and in the one bucket asked. */
export type BillSums = {readonly resourceId: string; readonly totals: ReadonlyArray<number | undefined>; readonly inBucket: number};

/** The bills kept in the history file: read by bucket, each bucket written whole (rewritten while it is open, never doubled). */
export type BillLedger = {
	/** False when another podtop holds the file: what is read is not kept. */
	readonly writable: boolean;
	/** The buckets of `size` read so far that start in [from, to), oldest first; with no rows unless `withRows` (when each was read, alone). */
	readonly read: (route: BillRoute, size: SpendBucketSize, from: number, to: number, withRows?: boolean) => StoredBill[];
	/**
	Each resource's sums over the buckets of [span.from, span.to) outside `span.skip`, in one pass made in SQL (no row is read one
	by one): its total from each of `starts` on, and in the bucket that starts at `bucket` (0 when it has none there).
	*/
	readonly sums: (route: BillRoute, size: SpendBucketSize, span: BillSpan, starts: readonly number[], bucket?: number) => BillSums[];
	/** The start and end of the latest bucket of the span that has rows and ended by `closedBy`; undefined when none. */
	readonly lastClosed: (route: BillRoute, size: SpendBucketSize, span: BillSpan, closedBy: number) => readonly [number, number] | undefined;
	/** Replaces each bucket's rows with the ones given (a resource gone from a bucket is gone from it here too). */
	readonly store: (route: BillRoute, size: SpendBucketSize, bills: readonly StoredBill[]) => void;
};

/** Whether the file has the bill tables (one written before bills were kept has none until it is opened for writing). */
export const hasBillTables = (db: SqliteDatabase) =>
	(db.prepare(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('bill_rows', 'bill_buckets')`).raw().get() as [number])[0] === 2;

const columns = spendCategories.map(category => billColumn(category)).join(', ');

/** A row's amounts from its category columns (NULL: the service billed none of it). */
function amountsOf(values: ReadonlyArray<number | null>): Partial<Record<SpendCategory, number>> {
	const amounts: Partial<Record<SpendCategory, number>> = {};
	for (const [index, category] of spendCategories.entries()) {
		const amount = values[index];
		if (typeof amount === 'number' && Number.isFinite(amount)) {
			amounts[category] = amount;
		}
	}

	return amounts;
}

/** A row's category columns from its amounts, in `spendCategories` order. */
const columnValues = (amounts: BillRow['byCategory']) =>
	spendCategories.map(category => {
		const amount = amounts[category];
		return typeof amount === 'number' && Number.isFinite(amount) ? amount : null;
	});

/** The ledger over a history file: `writable` when this process holds the file's writer lock. */
export function createBillLedger(db: SqliteDatabase, writable: boolean): BillLedger {
	type Statement = {readonly all: (...parameters: unknown[]) => unknown[]; readonly get: (...parameters: unknown[]) => unknown};
	/** Prepared once the tables are there (a file another podtop started before bills were kept has none until it writes some). */
	let statements: {readonly reads: Statement; readonly rows: Statement; readonly lastClosed: Statement} | undefined;
	/** The sums' statement for a count of starts (the pane asks with one or two). */
	const sumStatements = new Map<number, Statement>();
	const prepared = () => {
		if (!statements && hasBillTables(db)) {
			statements = {
				reads: db.prepare(`SELECT start, end, read_at FROM bill_buckets WHERE route = ? AND size = ? AND start >= ? AND start < ? ORDER BY start`).raw(),
				rows: db
					.prepare(
						`SELECT start, resource, total, ${columns} FROM bill_rows WHERE route = ? AND size = ? AND start >= ? AND start < ? ORDER BY start, resource`,
					)
					.raw(),
				lastClosed: db
					.prepare(
						`SELECT r.start, r.end FROM bill_buckets r WHERE r.route = ?1 AND r.size = ?2 AND r.start >= ?3 AND r.start < ?4 AND NOT (r.start >= ?5 AND r.start < ?6) AND r.end <= ?7 AND EXISTS (SELECT 1 FROM bill_rows b WHERE b.route = ?1 AND b.size = ?2 AND b.start = r.start) ORDER BY r.start DESC LIMIT 1`,
					)
					.raw(),
			};
		}

		return statements;
	};

	return {
		writable,
		read(route, size, from, to, withRows = true) {
			const ready = prepared();
			if (!ready) {
				return [];
			}

			const bills = new Map<number, {from: number; to: number; readAt: number; rows: BillRow[]}>();
			for (const [start, end, readAt] of ready.reads.all(route, size, from, to) as Array<[number, number, number]>) {
				bills.set(start, {from: start, to: end, readAt, rows: []});
			}

			if (!withRows) {
				return [...bills.values()];
			}

			for (const [start, resource, total, ...amounts] of ready.rows.all(route, size, from, to) as Array<[number, string, number, ...Array<number | null>]>) {
				bills.get(start)?.rows.push({resourceId: resource, total, byCategory: amountsOf(amounts)});
			}

			return [...bills.values()];
		},
		sums(route, size, span, starts, bucket) {
			if (!prepared() || starts.length === 0) {
				return [];
			}

			// One pass over the rows, every window's sum made in it: 30 and 7 days of 10,000 pods apart took two passes of the 30 days' rows.
			let statement = sumStatements.get(starts.length);
			if (!statement) {
				const windows = starts.map((_, index) => `sum(CASE WHEN start >= ?${index + 8} THEN total END)`).join(', ');
				statement = db
					.prepare(
						`SELECT resource, sum(CASE WHEN start = ?7 THEN total END), ${windows} FROM bill_rows WHERE route = ?1 AND size = ?2 AND start >= ?3 AND start < ?4 AND NOT (start >= ?5 AND start < ?6) GROUP BY resource`,
					)
					.raw();
				sumStatements.set(starts.length, statement);
			}

			const [skipFrom, skipTo] = span.skip ?? [0, 0];
			const rows = statement.all(route, size, span.from, span.to, skipFrom, skipTo, bucket ?? null, ...starts) as Array<
				[string, number | null, ...Array<number | null>]
			>;
			return rows.map(([resourceId, inBucket, ...totals]) => ({resourceId, totals: totals.map(total => total ?? undefined), inBucket: inBucket ?? 0}));
		},
		lastClosed(route, size, span, closedBy) {
			const [skipFrom, skipTo] = span.skip ?? [0, 0];
			return prepared()?.lastClosed.get(route, size, span.from, span.to, skipFrom, skipTo, closedBy) as [number, number] | undefined;
		},
		store(route, size, bills) {
			if (!writable || bills.length === 0) {
				return;
			}

			const clear = db.prepare(`DELETE FROM bill_rows WHERE route = ? AND size = ? AND start = ?`);
			const put = db.prepare(
				`INSERT OR REPLACE INTO bill_rows (route, size, start, resource, total, ${columns}) VALUES (?, ?, ?, ?, ?, ${spendCategories.map(() => '?').join(', ')})`,
			);
			const mark = db.prepare(
				`INSERT INTO bill_buckets (route, size, start, end, read_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (route, size, start) DO UPDATE SET end = excluded.end, read_at = excluded.read_at`,
			);
			db.exec('BEGIN');
			try {
				for (const bill of bills) {
					clear.run(route, size, bill.from);
					for (const row of bill.rows) {
						put.run(route, size, bill.from, row.resourceId, row.total, ...columnValues(row.byCategory));
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
		db.prepare(`DELETE FROM bill_rows WHERE ${sizes} AND start IN (SELECT start FROM bill_buckets WHERE ${sizes} AND end < ?)`).run(cutoff);
		db.prepare(`DELETE FROM bill_buckets WHERE ${sizes} AND end < ?`).run(cutoff);
	}
}

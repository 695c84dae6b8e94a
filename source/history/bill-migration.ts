import type Database from 'libsql';
import {spendCategories} from '../model/spend.js';
import {billColumn} from './schema.js';

/** The history file's connection (as `SqliteDatabase` in history-file.ts, which calls this: named here, not imported, so the two make no cycle). */
type SqliteDatabase = InstanceType<typeof Database>;

/** A category's dollars out of an old row's JSON text: a number, or NULL (text that is not JSON, or a value that is not a number, is none). */
const amountOf = (category: string) =>
	`CASE WHEN json_valid(amounts) THEN CASE WHEN json_type(amounts, '$.${category}') IN ('real', 'integer') THEN json_extract(amounts, '$.${category}') END END`;

/**
Moves the bills of the old format (`bill_reads`, and each row's amounts as JSON text in `bills`) into `bill_buckets` and
`bill_rows`, one column a category, and drops the old tables, in one transaction: a file opened for writing is migrated
once. Each bucket found in the old tables replaces the same bucket whole (an older podtop that wrote the file since
writes its buckets whole there, and newer than what was moved before). Files opened to read only are left as they are:
until a writer migrates them, their bills read as none kept.
*/
export function migrateBills(db: SqliteDatabase): void {
	const old = new Set(
		(db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('bill_reads', 'bills')`).raw().all() as Array<[string]>).map(
			([name]) => name,
		),
	);
	if (!old.has('bill_reads')) {
		return;
	}

	const columns = spendCategories.map(category => billColumn(category)).join(', ');
	db.exec('BEGIN IMMEDIATE');
	try {
		db.exec(`DELETE FROM bill_rows WHERE (route, size, start) IN (SELECT route, size, start FROM bill_reads)`);
		db.exec(`INSERT OR REPLACE INTO bill_buckets (route, size, start, end, read_at) SELECT route, size, start, end, read_at FROM bill_reads`);
		if (old.has('bills')) {
			db.exec(
				`INSERT OR REPLACE INTO bill_rows (route, size, start, resource, total, ${columns}) SELECT route, size, start, resource, total, ${spendCategories
					.map(category => amountOf(category))
					.join(', ')} FROM bills WHERE (route, size, start) IN (SELECT route, size, start FROM bill_reads)`,
			);
			db.exec('DROP TABLE bills');
		}

		db.exec('DROP TABLE bill_reads');
		db.exec('COMMIT');
	} catch (error) {
		db.exec('ROLLBACK');
		throw error;
	}
}

import type {SqliteDatabase} from './history-file.js';
import {seriesChangedSql} from './write-batch.js';

const minuteMs = 60_000;
const hourMs = 3_600_000;

/** What was set aside: the polls stamped after the cut, and their span. */
export type SetAside = {readonly polls: number; readonly from?: number; readonly to?: number; readonly lastAt: number};

/**
Takes out of the file every row stamped after `cut` (samples, polls, records, events, the rollups of the
minute and hour it falls in, whose marks go back so they are rolled again): what a clock gone ahead wrote.
Series first seen or deleted after the cut are as they were then. One transaction.
*/
export function setAsideFuture(db: SqliteDatabase, cut: number): SetAside {
	const [polls, from, to] = db.prepare('SELECT count(*), min(at), max(at) FROM polls WHERE at > ?').raw().get(cut) as [number, number | null, number | null];
	const minute = Math.floor(cut / minuteMs) * minuteMs;
	const hour = Math.floor(cut / hourMs) * hourMs;
	db.exec('BEGIN IMMEDIATE');
	try {
		for (const table of ['raw', 'polls', 'records', 'events']) {
			db.prepare(`DELETE FROM ${table} WHERE at > ?`).run(cut);
		}

		db.prepare('DELETE FROM minute WHERE at >= ?').run(minute);
		db.prepare('DELETE FROM hour WHERE at >= ?').run(hour);
		const markBack = db.prepare(`UPDATE meta SET value = ? WHERE key = ? AND CAST(value AS INTEGER) >= ?`);
		markBack.run(String(minute - minuteMs), 'rolled_minute', minute);
		markBack.run(String(hour - hourMs), 'rolled_hour', hour);
		db.prepare('UPDATE series SET deleted_at = NULL WHERE deleted_at > ?').run(cut);
		db.prepare('UPDATE series SET first_at = ? WHERE first_at > ?').run(cut, cut);
		db.prepare(seriesChangedSql).run();
		db.exec('COMMIT');
	} catch (error) {
		db.exec('ROLLBACK');
		throw error;
	}

	const lastAt = (db.prepare('SELECT max(at) FROM polls').raw().get() as [number | null])[0] ?? 0;
	return {polls, ...(from === null ? {} : {from}), ...(to === null ? {} : {to}), lastAt};
}

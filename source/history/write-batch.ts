import {createBulkInsert} from './bulk-insert.js';
import type {Batch} from './batch.js';
import type {SqliteDatabase} from './history-file.js';
import type {SeriesKind} from './history-types.js';
import {releaseRows, type Rows} from './sample-rows.js';
import {thingKey} from './tracked.js';

/** Counts changes to the `series` table (things added, renamed, deleted, back, pruned): a reader keeps the table and reloads it when this moves. */
export const seriesChangedSql = `INSERT INTO meta (key, value) VALUES ('series_version', '1') ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1`;

/** A series' row: its id, and what the file says of it now. */
export type SeriesEntry = {readonly id: number; name: string; deleted: boolean};

/** The series' id in place of the key of a thing new to the file, in a batch's rows of samples (the batch is not written twice). */
function withIds({list, count}: Rows, lookup: (thing: string) => number): void {
	for (let index = 0; index < count; index += 2) {
		const reference = list[index];
		if (typeof reference === 'string') {
			list[index] = lookup(reference);
		}
	}
}

/**
The statements of one writer connection, prepared once. Rows go in as one JSON text per table
and are unpacked by SQLite (`json_each`): a poll of 10,000 pods is one call, not 10,000.
*/
export function createBatchWriter(db: SqliteDatabase) {
	// The WAL is copied into the file by the upkeep's round (maintenance.ts), between polls: left to SQLite, the commit that
	// passed 1,000 pages did it, once a minute at 10,000 pods, and that poll's write took 8-10 ms more. This is the backstop
	// for a writer whose upkeep does not run (32 MB of WAL).
	db.exec('PRAGMA wal_autocheckpoint = 8192');
	const statements = {
		newSeries: db.prepare(`INSERT INTO series (kind, key, name, first_at) SELECT value->>0, value->>1, value->>2, ? FROM json_each(?) RETURNING id, kind, key`),
		rename: db.prepare(`UPDATE series SET name = ? WHERE id = ?`),
		deleted: db.prepare(`UPDATE series SET deleted_at = ? WHERE id IN (SELECT value FROM json_each(?))`),
		revived: db.prepare(`UPDATE series SET deleted_at = NULL WHERE id IN (SELECT value FROM json_each(?))`),
		records: db.prepare(`INSERT OR REPLACE INTO records (sid, at, record) SELECT value->>0, ?, value->>1 FROM json_each(?)`),
		poll: db.prepare(`INSERT INTO polls (at, keyframe) VALUES (?, ?) ON CONFLICT (at) DO UPDATE SET keyframe = max(keyframe, excluded.keyframe)`),
		events: db.prepare(
			`INSERT INTO events (at, type, kind, subject, name, ref, data) SELECT coalesce(value->>6, ?), value->>0, value->>1, value->>2, value->>3, value->>4, value->5 FROM json_each(?)`,
		),
		meta: db.prepare(`INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`),
		seriesChanged: db.prepare(seriesChangedSql),
		series: db.prepare(`SELECT id, kind, key, name, deleted_at FROM series`).raw(),
	};
	// Prepared now: a poll's write prepares nothing (the first polls of a recorder paid 12 ms for them). The state is bound
	// once a statement (a poll's rows are sent by state): a text bound costs libsql three times a number, and 8,300 of a
	// poll's 8,800 rows say RUNNING (the insert 11 → 6 ms).
	const insertSamples = createBulkInsert(db, 'raw', ['sid', 'v'], ['at', 'state'], {prepareAll: true});

	/** Every series of the file, by thing key (`kind\0id`). */
	const loadSeries = (): Map<string, SeriesEntry> => {
		const map = new Map<string, SeriesEntry>();
		for (const [id, kind, key, name, deletedAt] of statements.series.all() as Array<[number, string, string, string | null, number | null]>) {
			map.set(thingKey(kind as SeriesKind, key), {id, name: name ?? key, deleted: deletedAt !== null});
		}

		return map;
	};

	/**
	Writes one batch in one transaction at `at`: new series first (their ids are needed), then names,
	deletions, records, samples, the poll's instant and the events. Throws (after rolling back) on
	any failure: the caller keeps what it wrote before, and nothing of this batch is half in the file.
	*/
	const write = (batch: Batch, at: number, keyframe: boolean, series: Map<string, SeriesEntry>): void => {
		const deleted = new Set(batch.deleted);
		db.exec('BEGIN IMMEDIATE');
		try {
			const fresh = [...batch.things].filter(([thing]) => !series.has(thing));
			const added: Array<[string, SeriesEntry]> = [];
			if (fresh.length > 0) {
				const rows = statements.newSeries.raw().all(at, JSON.stringify(fresh.map(([, {kind, key, name}]) => [kind, key, name]))) as Array<
					[number, SeriesKind, string]
				>;
				for (const [id, kind, key] of rows) {
					const thing = thingKey(kind, key);
					added.push([thing, {id, name: batch.things.get(thing)?.name ?? key, deleted: false}]);
				}
			}

			const addedMap = new Map(added);
			const lookup = (thing: string): number => {
				const id = series.get(thing)?.id ?? addedMap.get(thing)?.id;
				if (id === undefined) {
					throw new Error(`no series for ${thing.replace('\0', ' ')}`);
				}

				return id;
			};

			const revived: number[] = [];
			for (const [thing, {name}] of batch.things) {
				const entry = series.get(thing);
				if (entry && entry.name !== name) {
					statements.rename.run(name, entry.id);
				}

				if (entry?.deleted && !deleted.has(thing)) {
					revived.push(entry.id);
				}
			}

			if (revived.length > 0) {
				statements.revived.run(JSON.stringify(revived));
			}

			// Only things new, renamed, deleted or back are in `things`: readers that keep the series reload them.
			if (batch.things.size > 0) {
				statements.seriesChanged.run();
			}

			if (batch.deleted.length > 0) {
				statements.deleted.run(at, JSON.stringify(batch.deleted.map(thing => lookup(thing))));
			}

			if (batch.records.length > 0) {
				statements.records.run(at, JSON.stringify(batch.records.map(({thing, record}) => [lookup(thing), record])));
			}

			if (batch.samples.size > 0) {
				for (const [state, rows] of batch.samples) {
					withIds(rows, lookup);
					insertSamples(rows.list, [at, state], rows.count);
					// Its texts let go now, not held until the next poll fills the list again.
					releaseRows(rows);
				}

				statements.poll.run(at, keyframe ? 1 : 0);
			}

			if (batch.events.length > 0) {
				statements.events.run(
					at,
					JSON.stringify(
						batch.events.map(event => [
							event.type,
							event.kind ?? null,
							event.subject ?? null,
							event.name ?? null,
							event.ref ?? null,
							event.data,
							event.at ?? null,
						]),
					),
				);
			}

			for (const [key, value] of batch.meta) {
				statements.meta.run(key, value);
			}

			db.exec('COMMIT');
			// The file has them now: so does the map.
			for (const [thing, entry] of added) {
				series.set(thing, entry);
			}

			for (const [thing, {name}] of batch.things) {
				const entry = series.get(thing);
				if (entry) {
					entry.name = name;
					entry.deleted = deleted.has(thing);
				}
			}
		} catch (error) {
			try {
				db.exec('ROLLBACK');
			} catch {}

			throw error;
		}
	};

	return {write, loadSeries};
}

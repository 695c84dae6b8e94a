import type {SeriesKind} from './history-types.js';
import type {SqliteDatabase} from './history-file.js';
import {thingKey} from './tracked.js';

/** A series as the reader keeps it. */
export type KnownSeriesRow = {
	readonly id: number;
	readonly kind: SeriesKind;
	readonly key: string;
	readonly name: string | undefined;
	readonly firstAt: number;
	readonly deletedAt: number | undefined;
};

/** The file's series, by id and by what a query may name them with. */
export type KnownSeries = {
	readonly byId: ReadonlyMap<number, KnownSeriesRow>;
	/** By `kind\0key`. */
	readonly byKey: ReadonlyMap<string, KnownSeriesRow>;
	/** By `kind\0name`: of things sharing a name, one not deleted first, then the newest. */
	readonly byName: ReadonlyMap<string, KnownSeriesRow>;
};

type ParsedRecord = {readonly at: number; readonly record: Readonly<Record<string, unknown>>};

type Cache = {
	/** `meta.series_version` when the series were read (the writer moves it on any change to them). */
	version: string | undefined;
	series: KnownSeries | undefined;
	/** The records parsed last, by series (one each): stepping through time parses each record once. */
	records: Map<number, ParsedRecord>;
	/** When each series' records were written (oldest first), as of the commit `commits` names. */
	recordTimes: {readonly commits: string; readonly bySid: Map<number, number[]>} | undefined;
	/** What the last past account made of each thing, by series id, for the next moment to reuse what did not change (state-at.ts). */
	made: readonly unknown[];
	timer?: NodeJS.Timeout;
};

/** Unused this long, what a reader keeps is let go (back to live, nothing of the past stays in memory). */
const keepMs = 60_000;

const caches = new WeakMap<SqliteDatabase, Cache>();
const prepared = new WeakMap<SqliteDatabase, ReturnType<typeof prepare>>();

function prepare(db: SqliteDatabase) {
	return {
		version: db.prepare(`SELECT value FROM meta WHERE key = 'series_version'`).raw(),
		// A file without the mark (no series changed since it was made): any commit since, by another connection or this one, may have changed them.
		commits: db.prepare(`SELECT data_version, total_changes() FROM pragma_data_version`).raw(),
		series: db
			.prepare(
				`SELECT group_concat(id || ',' || json_quote(kind) || ',' || json_quote(key) || ',' || json_quote(name) || ',' || first_at || ',' || coalesce(deleted_at, 'null'), ',') FROM series`,
			)
			.raw(),
		// When each thing's records were written, in key order (by series, oldest first): which holds at a moment is then found without SQL.
		recordTimes: db.prepare(`SELECT group_concat(sid || ',' || at, ',') FROM records`).raw(),
		recordTexts: db
			.prepare(
				`SELECT json_group_array(json_array(r.sid, r.at, r.record)) FROM json_each(?) j JOIN records r ON r.sid = j.value ->> 0 AND r.at = j.value ->> 1`,
			)
			.raw(),
	};
}

function cacheOf(db: SqliteDatabase): {cache: Cache; statements: ReturnType<typeof prepare>} {
	let statements = prepared.get(db);
	if (!statements) {
		statements = prepare(db);
		prepared.set(db, statements);
	}

	let cache = caches.get(db);
	if (!cache) {
		cache = {version: undefined, series: undefined, records: new Map(), recordTimes: undefined, made: []};
		caches.set(db, cache);
	}

	clearTimeout(cache.timer);
	const held = cache;
	cache.timer = setTimeout(() => {
		held.series = undefined;
		held.records = new Map();
		held.recordTimes = undefined;
		held.made = [];
	}, keepMs);
	cache.timer.unref();
	return {cache, statements};
}

/** What the last past account made of each thing by series id (let go with the rest of the cache); the caller replaces it with `keepMade`. */
export const lastMade = <T>(db: SqliteDatabase): ReadonlyArray<T | undefined> => cacheOf(db).cache.made as Array<T | undefined>;

/** Keeps what this past account made, for the next moment's `lastMade`. */
export function keepMade<T>(db: SqliteDatabase, made: ReadonlyArray<T | undefined>): void {
	cacheOf(db).cache.made = made;
}

/** A flat JSON list made by `group_concat` (no brackets), empty when there were no rows. */
export const flatList = (row: unknown): unknown[] => {
	const text = (row as [string | null] | undefined)?.[0];
	return text ? (JSON.parse(`[${text}]`) as unknown[]) : [];
};

/** A thing named `name` is a better answer than `than` (of two sharing it): one not deleted, else the newest. */
function betterNamed(row: KnownSeriesRow, than: KnownSeriesRow | undefined): boolean {
	if (!than) {
		return true;
	}

	const alive = row.deletedAt === undefined;
	return alive === (than.deletedAt === undefined) ? row.firstAt > than.firstAt : alive;
}

/** Names the file's last commit, by any connection (the same until something is written). */
const commitsOf = (statements: ReturnType<typeof prepare>) => `commits ${(statements.commits.get() as [number, number]).join(' ')}`;

/** Every series of the file, read again only when the writer says they changed (a file without the mark: after any commit). */
export function knownSeries(db: SqliteDatabase): KnownSeries {
	const {cache, statements} = cacheOf(db);
	const version = (statements.version.get() as [string] | undefined)?.[0] ?? commitsOf(statements);
	if (cache.series && version === cache.version) {
		return cache.series;
	}

	const flat = flatList(statements.series.get());
	const byId = new Map<number, KnownSeriesRow>();
	const byKey = new Map<string, KnownSeriesRow>();
	const byName = new Map<string, KnownSeriesRow>();
	for (let index = 0; index < flat.length; index += 6) {
		const row: KnownSeriesRow = {
			id: flat[index] as number,
			kind: flat[index + 1] as SeriesKind,
			key: flat[index + 2] as string,
			name: (flat[index + 3] as string | null) ?? undefined,
			firstAt: flat[index + 4] as number,
			deletedAt: (flat[index + 5] as number | null) ?? undefined,
		};
		byId.set(row.id, row);
		byKey.set(thingKey(row.kind, row.key), row);
		if (row.name !== undefined) {
			const named = thingKey(row.kind, row.name);
			if (betterNamed(row, byName.get(named))) {
				byName.set(named, row);
			}
		}
	}

	cache.series = {byId, byKey, byName};
	cache.version = version;
	return cache.series;
}

/** Every series of the file by id. */
export const seriesById = (db: SqliteDatabase): ReadonlyMap<number, KnownSeriesRow> => knownSeries(db).byId;

/** The things a query names, each by id first, else by name (one not deleted, else the newest); those not found left out. */
export function resolveThings(db: SqliteDatabase, kind: SeriesKind, keys: readonly string[]): KnownSeriesRow[] {
	const {byKey, byName} = knownSeries(db);
	return keys.flatMap(key => byKey.get(thingKey(kind, key)) ?? byName.get(thingKey(kind, key)) ?? []);
}

/** The last of ascending `times` not after `at`. */
function newestUpTo(times: readonly number[], at: number): number | undefined {
	let low = 0;
	let high = times.length;
	while (low < high) {
		const middle = Math.floor((low + high) / 2);
		if (times[middle]! <= at) {
			low = middle + 1;
		} else {
			high = middle;
		}
	}

	return low === 0 ? undefined : times[low - 1];
}

/**
The record of each wanted series (each once) at the moment, parsed (those parsed for the last moment
reused), by series id: a list, not a map (10,000 pods' records at each step of the time cursor).
*/
export function recordsAt(db: SqliteDatabase, at: number, wanted: Iterable<number>): ReadonlyArray<ParsedRecord | undefined> {
	const {cache, statements} = cacheOf(db);
	const commits = commitsOf(statements);
	if (cache.recordTimes?.commits !== commits) {
		const pairs = flatList(statements.recordTimes.get()) as number[];
		const bySid = new Map<number, number[]>();
		for (let index = 0; index < pairs.length; index += 2) {
			const times = bySid.get(pairs[index]!);
			if (times) {
				times.push(pairs[index + 1]!);
			} else {
				bySid.set(pairs[index]!, [pairs[index + 1]!]);
			}
		}

		for (const times of bySid.values()) {
			if (times.length > 1) {
				times.sort((a, b) => a - b);
			}
		}

		cache.recordTimes = {commits, bySid};
	}

	const records: Array<ParsedRecord | undefined> = [];
	const missing: Array<[number, number]> = [];
	for (const sid of wanted) {
		const times = cache.recordTimes.bySid.get(sid);
		if (!times) {
			continue;
		}

		// Its newest record at the moment, or its first when none was written yet.
		const recordAt = newestUpTo(times, at) ?? times[0]!;
		const cached = cache.records.get(sid);
		if (cached?.at === recordAt) {
			records[sid] = cached;
		} else {
			missing.push([sid, recordAt]);
		}
	}

	if (missing.length > 0) {
		const rows = JSON.parse((statements.recordTexts.get(JSON.stringify(missing)) as [string])[0]) as Array<[number, number, string]>;
		for (const [sid, recordAt, record] of rows) {
			const parsed = {at: recordAt, record: JSON.parse(record) as Record<string, unknown>};
			records[sid] = parsed;
			// Kept beside the other things' (a moment's pods are asked apart from the rest: the Pods pane reads them later, or not at all).
			cache.records.set(sid, parsed);
		}
	}

	return records;
}

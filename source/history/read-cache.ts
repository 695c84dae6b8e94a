import type {SeriesKind} from './history-types.js';
import type {SqliteDatabase} from './history-file.js';

/** A series as the reader keeps it. */
export type KnownSeriesRow = {readonly kind: SeriesKind; readonly key: string; readonly name: string | undefined; readonly deletedAt: number | undefined};

type ParsedRecord = {readonly at: number; readonly record: Readonly<Record<string, unknown>>};

type Cache = {
	/** `meta.series_version` when the series were read (the writer moves it on any change to them). */
	version: string | undefined;
	series: Map<number, KnownSeriesRow> | undefined;
	/** Records parsed for the last moment asked, by series: stepping through time parses each record once. */
	records: Map<number, ParsedRecord>;
	timer?: NodeJS.Timeout;
};

/** Unused this long, what a reader keeps is let go (back to live, nothing of the past stays in memory). */
const keepMs = 60_000;

const caches = new WeakMap<SqliteDatabase, Cache>();
const prepared = new WeakMap<SqliteDatabase, ReturnType<typeof prepare>>();

function prepare(db: SqliteDatabase) {
	return {
		version: db.prepare(`SELECT value FROM meta WHERE key = 'series_version'`).raw(),
		series: db
			.prepare(
				`SELECT group_concat(id || ',' || json_quote(kind) || ',' || json_quote(key) || ',' || json_quote(name) || ',' || coalesce(deleted_at, 'null'), ',') FROM series`,
			)
			.raw(),
		// Which record of each thing holds at a moment (its newest then, or its first when none was yet): one pass over the records in key order.
		recordAt: db
			.prepare(
				`SELECT group_concat(sid || ',' || at, ',') FROM (SELECT sid, coalesce(max(CASE WHEN at <= ? THEN at END), min(at)) AS at FROM records GROUP BY sid)`,
			)
			.raw(),
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
		cache = {version: undefined, series: undefined, records: new Map()};
		caches.set(db, cache);
	}

	clearTimeout(cache.timer);
	const held = cache;
	cache.timer = setTimeout(() => {
		held.series = undefined;
		held.records = new Map();
	}, keepMs);
	cache.timer.unref();
	return {cache, statements};
}

/** A flat JSON list made by `group_concat` (no brackets), empty when there were no rows. */
export const flatList = (row: unknown): unknown[] => {
	const text = (row as [string | null] | undefined)?.[0];
	return text ? (JSON.parse(`[${text}]`) as unknown[]) : [];
};

/** Every series of the file by id, read again only when the writer says they changed (a file without the mark: every time). */
export function seriesById(db: SqliteDatabase): Map<number, KnownSeriesRow> {
	const {cache, statements} = cacheOf(db);
	const version = (statements.version.get() as [string] | undefined)?.[0];
	if (cache.series && version !== undefined && version === cache.version) {
		return cache.series;
	}

	const flat = flatList(statements.series.get());
	const series = new Map<number, KnownSeriesRow>();
	for (let index = 0; index < flat.length; index += 5) {
		series.set(flat[index] as number, {
			kind: flat[index + 1] as SeriesKind,
			key: flat[index + 2] as string,
			name: (flat[index + 3] as string | null) ?? undefined,
			deletedAt: (flat[index + 4] as number | null) ?? undefined,
		});
	}

	cache.series = series;
	cache.version = version;
	return series;
}

/** The record of each wanted series at the moment, parsed (those parsed for the last moment reused). */
export function recordsAt(db: SqliteDatabase, at: number, wanted: ReadonlySet<number>): Map<number, ParsedRecord> {
	const {cache, statements} = cacheOf(db);
	const pairs = flatList(statements.recordAt.get(at)) as number[];
	const records = new Map<number, ParsedRecord>();
	const missing: Array<[number, number]> = [];
	for (let index = 0; index < pairs.length; index += 2) {
		const sid = pairs[index]!;
		const recordAt = pairs[index + 1]!;
		if (!wanted.has(sid)) {
			continue;
		}

		const cached = cache.records.get(sid);
		if (cached?.at === recordAt) {
			records.set(sid, cached);
		} else {
			missing.push([sid, recordAt]);
		}
	}

	if (missing.length > 0) {
		const rows = JSON.parse((statements.recordTexts.get(JSON.stringify(missing)) as [string])[0]) as Array<[number, number, string]>;
		for (const [sid, recordAt, record] of rows) {
			records.set(sid, {at: recordAt, record: JSON.parse(record) as Record<string, unknown>});
		}
	}

	cache.records = records;
	return records;
}

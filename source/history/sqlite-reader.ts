import {statSync} from 'node:fs';
import type {SqliteDatabase} from './history-file.js';
import {
	type HistoryEvent,
	type HistoryInfo,
	type HistoryReader,
	type KnownThing,
	type Series,
	type SeriesKind,
	type SeriesPoint,
	type SeriesQuery,
	type Tier,
	tiers,
} from './history-types.js';
import {mergePoints} from './merge-points.js';
import {defaultRetention, type Retention, tierStepMs} from './retention.js';
import {stateAt} from './state-at.js';
import {fieldNames} from './fields.js';

type Values = Array<number | null>;

/**
The finest tier whose buckets are no wider than the step asked for and which still holds `from`.
A coarser tier is taken only for what the finer one no longer holds (pruned past its retention),
not because its first bucket starts earlier: an hour rollup starting at 23:00 of a recording begun
at 23:05 holds nothing the minutes do not, and lacks the hour in progress.
*/
export function chooseTier(step: number | undefined, from: number, oldest: Readonly<Record<Tier, number | undefined>>): Tier {
	const wanted: Tier = step === undefined || step < tierStepMs.minute ? 'raw' : step < tierStepMs.hour ? 'minute' : 'hour';
	const order = tiers.slice(tiers.indexOf(wanted)).filter(tier => oldest[tier] !== undefined);
	let chosen = order[0];
	if (chosen === undefined) {
		return wanted;
	}

	for (const tier of order.slice(1)) {
		if (oldest[chosen]! <= from) {
			break;
		}

		if (oldest[tier]! + tierStepMs[tier] <= oldest[chosen]!) {
			chosen = tier;
		}
	}

	return chosen;
}

type Options = {
	readonly db: SqliteDatabase;
	readonly file: string;
	readonly retention?: Retention;
	/** Closes the connection too (a reader that opened its own). */
	readonly ownsDatabase?: boolean;
};

/** Range queries over one account's SQLite file. Each call reads what it needs by seeks on (time, series). */
export function createSqliteReader({db, file, retention = defaultRetention, ownsDatabase = true}: Options): HistoryReader {
	const statements = {
		thing: db
			.prepare(
				`SELECT id, kind, key, name, first_at, deleted_at FROM series WHERE kind = ? AND (key = ? OR name = ?) ORDER BY key = ? DESC, deleted_at IS NOT NULL, first_at DESC LIMIT 1`,
			)
			.raw(),
		things: db.prepare(`SELECT kind, key, name, first_at, deleted_at FROM series ORDER BY kind, name`).raw(),
		thingsOfKind: db.prepare(`SELECT kind, key, name, first_at, deleted_at FROM series WHERE kind = ? ORDER BY name`).raw(),
		raw: db
			.prepare(
				// CROSS JOIN keeps the instants as the outer loop (a seek per instant); left to choose, SQLite scanned every raw sample of the range (24 h of 10,000 pods: 1.6 s).
				`SELECT json_group_array(json_array(r.at, r.state, json(r.v))) FROM polls p CROSS JOIN raw r ON r.at = p.at AND r.sid = ? WHERE p.at BETWEEN ? AND ? ORDER BY p.at`,
			)
			.raw(),
		rollup: (tier: 'minute' | 'hour') =>
			db
				.prepare(
					`SELECT json_group_array(json_array(r.at, r.n, r.state, json(r.vmin), json(r.vmean), json(r.vmax), json(r.vlast))) FROM json_each(?) b JOIN ${tier} r ON r.at = b.value AND r.sid = ? ORDER BY r.at`,
				)
				.raw(),
		// Each of min() and max() alone is one seek; together in one SELECT, SQLite reads the whole table (3 million minute rows: 1 s).
		oldest: {
			raw: db.prepare(`SELECT (SELECT min(at) FROM polls), (SELECT max(at) FROM polls)`).raw(),
			minute: db.prepare(`SELECT (SELECT min(at) FROM minute), (SELECT max(at) FROM minute)`).raw(),
			hour: db.prepare(`SELECT (SELECT min(at) FROM hour), (SELECT max(at) FROM hour)`).raw(),
		},
		events: db.prepare(`SELECT at, type, kind, subject, name, data FROM events WHERE at BETWEEN ? AND ? ORDER BY at DESC, id DESC LIMIT ?`).raw(),
		counts: db.prepare(`SELECT (SELECT count(*) FROM series), (SELECT count(*) FROM events)`).raw(),
	};
	const rollups = {minute: statements.rollup('minute'), hour: statements.rollup('hour')};

	const spans = (): Record<Tier, {readonly from: number; readonly to: number} | undefined> => {
		const read = (tier: Tier) => {
			const [from, to] = statements.oldest[tier].get() as [number | null, number | null];
			return from === null || to === null ? undefined : {from, to};
		};

		return {raw: read('raw'), minute: read('minute'), hour: read('hour')};
	};

	const resolve = (kind: SeriesKind, key: string) => {
		const row = statements.thing.get(kind, key, key, key) as [number, SeriesKind, string, string | null, number, number | null] | undefined;
		return row ? {id: row[0], key: row[2], name: row[3] ?? row[2], deletedAt: row[5] ?? undefined} : undefined;
	};

	const seriesOf = (kind: SeriesKind, key: string, from: number, to: number, step: number | undefined): Series | undefined => {
		const thing = resolve(kind, key);
		if (!thing) {
			return undefined;
		}

		const span = spans();
		const tier = chooseTier(step, from, {raw: span.raw?.from, minute: span.minute?.from, hour: span.hour?.from});
		const readTier = (source: Tier, start: number, end: number): SeriesPoint[] => {
			if (source === 'raw') {
				const rows = JSON.parse((statements.raw.get(thing.id, start, end) as [string])[0]) as Array<[number, string | null, Values]>;
				return rows.map(([at, state, values]) => ({at, count: 1, state: state ?? undefined, min: values, mean: values, max: values, last: values}));
			}

			const width = tierStepMs[source];
			const buckets: number[] = [];
			for (let at = Math.floor(start / width) * width; at <= end; at += width) {
				buckets.push(at);
			}

			const rows = JSON.parse((rollups[source].get(JSON.stringify(buckets), thing.id) as [string])[0]) as Array<
				[number, number, string | null, Values, Values, Values, Values]
			>;
			const points = rows.map(([at, count, state, min, mean, max, last]) => ({at, count, state: state ?? undefined, min, mean, max, last}));
			// The newest stretch is not rolled up yet (a minute closes seconds after its end, an hour after the hour): the finer tier fills it.
			const covered = span[source] ? span[source].to + width : start;
			return covered <= end ? [...points, ...readTier(tiers[tiers.indexOf(source) - 1]!, Math.max(start, covered), end)] : points;
		};

		const points = readTier(tier, from, to);
		const width = step === undefined ? undefined : Math.max(step, tierStepMs[tier]);
		const merged = width !== undefined && width > 0 ? mergePoints(points, width) : points;
		const length = merged.reduce((longest, point) => Math.max(longest, point.last.length, point.min.length), 0);
		return {
			kind,
			key: thing.key,
			name: thing.name,
			deletedAt: thing.deletedAt,
			fields: fieldNames(kind, length),
			tier,
			step: step !== undefined && step > tierStepMs[tier] ? step : tierStepMs[tier],
			points: merged,
		};
	};

	const things = (kind?: SeriesKind): KnownThing[] =>
		((kind ? statements.thingsOfKind.all(kind) : statements.things.all()) as Array<[SeriesKind, string, string | null, number, number | null]>).map(
			([thingKind, key, name, firstAt, deletedAt]) => ({kind: thingKind, key, name: name ?? key, firstAt, lastAt: firstAt, deletedAt: deletedAt ?? undefined}),
		);

	const span = () => {
		const all = Object.values(spans()).filter(Boolean) as Array<{from: number; to: number}>;
		return all.length === 0 ? undefined : {from: Math.min(...all.map(each => each.from)), to: Math.max(...all.map(each => each.to))};
	};

	return {
		kind: 'sqlite',
		async series({kind, keys, from, to, step}: SeriesQuery) {
			return keys.flatMap(key => seriesOf(kind, key, from, to, step) ?? []);
		},
		async stateAt(at) {
			return stateAt(db, at, spans());
		},
		async events(from, to, limit = 10_000) {
			const rows = statements.events.all(from, to, limit) as Array<[number, HistoryEvent['type'], SeriesKind | null, string | null, string | null, string]>;
			return rows.reverse().map(([eventAt, type, kind, subject, name, data]) => ({
				at: eventAt,
				type,
				kind: kind ?? undefined,
				subject: subject ?? undefined,
				name: name ?? undefined,
				data: JSON.parse(data) as Record<string, unknown>,
			}));
		},
		async things(kind) {
			return things(kind);
		},
		async span() {
			return span();
		},
		async info({integrity = false} = {}): Promise<HistoryInfo> {
			const bytes = [file, `${file}-wal`].reduce((total, path) => {
				try {
					return total + statSync(path).size;
				} catch {
					return total;
				}
			}, 0);
			const span = spans();
			const [seriesCount, eventCount] = statements.counts.get() as [number, number];
			const check = integrity ? (db.prepare('PRAGMA integrity_check').raw().all() as Array<[string]>).map(([line]) => line).join('; ') : undefined;
			return {
				source: file,
				kind: 'sqlite',
				bytes,
				tiers: tiers.map(tier => ({tier, retentionMs: retention[tier], from: span[tier]?.from, to: span[tier]?.to})),
				series: seriesCount,
				events: eventCount,
				integrity: check,
			};
		},
		async close() {
			if (ownsDatabase) {
				db.close();
			}
		},
	};
}

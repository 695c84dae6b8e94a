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
import {keptLogsIn, type KeptLogs} from './kept-logs.js';
import {mergePoints} from './merge-points.js';
import {defaultRetention, type Retention, tierStepMs} from './retention.js';
import {stateAt} from './state-at.js';
import {fieldNames} from './fields.js';
import {readBillTotals} from './bill-totals.js';
import {flatList, resolveThings} from './read-cache.js';

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
	let kept: KeptLogs | undefined;
	const statements = {
		things: db.prepare(`SELECT kind, key, name, first_at, deleted_at FROM series ORDER BY kind, name`).raw(),
		thingsOfKind: db.prepare(`SELECT kind, key, name, first_at, deleted_at FROM series WHERE kind = ? ORDER BY name`).raw(),
		// Every thing asked for in one statement, as flat text (sid, at, state, values, …). CROSS JOIN keeps the instants as the outer
		// loop (a seek per instant and thing); left to choose, SQLite scanned every raw sample of the range (24 h of 10,000 pods: 1.6 s).
		raw: db
			.prepare(
				`SELECT group_concat(r.sid || ',' || r.at || ',' || json_quote(r.state) || ',' || r.v, ',') FROM polls p CROSS JOIN raw r ON r.at = p.at AND r.sid IN (SELECT value FROM json_each(?3)) WHERE p.at BETWEEN ?1 AND ?2`,
			)
			.raw(),
		rollup: (tier: 'minute' | 'hour') =>
			db
				.prepare(
					`SELECT group_concat(r.sid || ',' || r.at || ',' || r.n || ',' || json_quote(r.state) || ',' || r.vmin || ',' || r.vmean || ',' || r.vmax || ',' || r.vlast, ',') FROM json_each(?1) b CROSS JOIN ${tier} r ON r.at = b.value AND r.sid IN (SELECT value FROM json_each(?2))`,
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

	/** Each thing's points of one tier between two moments (and of the finer tiers for what the tier has not rolled up yet), by series id. */
	const readTier = (
		source: Tier,
		start: number,
		end: number,
		sids: readonly number[],
		span: ReturnType<typeof spans>,
		points: Map<number, SeriesPoint[]>,
	): void => {
		const add = (sid: number, point: SeriesPoint) => {
			const list = points.get(sid);
			if (list) {
				list.push(point);
			} else {
				points.set(sid, [point]);
			}
		};

		if (source === 'raw') {
			const flat = flatList(statements.raw.get(start, end, JSON.stringify(sids)));
			for (let index = 0; index < flat.length; index += 4) {
				const values = flat[index + 3] as Values;
				const state = (flat[index + 2] as string | null) ?? undefined;
				add(flat[index] as number, {at: flat[index + 1] as number, count: 1, state, min: values, mean: values, max: values, last: values});
			}

			return;
		}

		const width = tierStepMs[source];
		const buckets: number[] = [];
		for (let at = Math.floor(start / width) * width; at <= end; at += width) {
			buckets.push(at);
		}

		const flat = flatList(rollups[source].get(JSON.stringify(buckets), JSON.stringify(sids)));
		for (let index = 0; index < flat.length; index += 8) {
			add(flat[index] as number, {
				at: flat[index + 1] as number,
				count: flat[index + 2] as number,
				state: (flat[index + 3] as string | null) ?? undefined,
				min: flat[index + 4] as Values,
				mean: flat[index + 5] as Values,
				max: flat[index + 6] as Values,
				last: flat[index + 7] as Values,
			});
		}

		// The newest stretch is not rolled up yet (a minute closes seconds after its end, an hour after the hour): the finer tier fills it.
		const covered = span[source] ? span[source].to + width : start;
		if (covered <= end) {
			readTier(tiers[tiers.indexOf(source) - 1]!, Math.max(start, covered), end, sids, span, points);
		}
	};

	/** The series of the things named, read together: one statement per tier for all of them. */
	const readSeries = ({kind, keys, from, to, step}: SeriesQuery): Series[] => {
		const found = resolveThings(db, kind, keys);
		if (found.length === 0) {
			return [];
		}

		const span = spans();
		const tier = chooseTier(step, from, {raw: span.raw?.from, minute: span.minute?.from, hour: span.hour?.from});
		const points = new Map<number, SeriesPoint[]>();
		readTier(tier, from, to, [...new Set(found.map(thing => thing.id))], span, points);
		const width = step === undefined ? undefined : Math.max(step, tierStepMs[tier]);
		return found.map(thing => {
			// In time order (rows come in the order the tables were walked: each tier's oldest first, then the finer tier's).
			const own = (points.get(thing.id) ?? []).sort((a, b) => a.at - b.at);
			const merged = width !== undefined && width > 0 ? mergePoints(own, width) : own;
			const length = merged.reduce((longest, point) => Math.max(longest, point.last.length, point.min.length), 0);
			return {
				kind,
				key: thing.key,
				name: thing.name ?? thing.key,
				deletedAt: thing.deletedAt,
				fields: fieldNames(kind, length),
				tier,
				step: step !== undefined && step > tierStepMs[tier] ? step : tierStepMs[tier],
				points: merged,
			};
		});
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
		async series(query: SeriesQuery) {
			return readSeries(query);
		},
		seriesNow: readSeries,
		async stateAt(at) {
			return stateAt(db, at, spans());
		},
		stateAtNow: (at, options) => stateAt(db, at, spans(), options),
		async keptLines(endpointId, workerId) {
			kept ??= keptLogsIn(db, {writable: false});
			return kept.read(endpointId, workerId);
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
		async bills(from, to) {
			return readBillTotals(db, from, to);
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

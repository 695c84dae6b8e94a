import {figuresWindowMs} from '../store/endpoint-figures.js';
import type {HealthSample} from '../store/types.js';
import {healthSampleOf} from './fields.js';
import type {SqliteDatabase} from './history-file.js';
import type {Tier} from './history-types.js';
import {gapMs} from './keyframe.js';
import {tierStepMs} from './retention.js';

type Values = Array<number | null>;
/** An endpoint's series id, a sample's time and its values. */
type Row = [number, number, Values];

const prepared = new WeakMap<SqliteDatabase, ReturnType<typeof prepare>>();

function prepare(db: SqliteDatabase) {
	// A seek per instant (the polls, the rollups' buckets) and endpoint, as `series` reads: left to choose, SQLite scans every sample of the span.
	const firstOfBuckets = (table: 'minute' | 'hour') =>
		db
			.prepare(
				`SELECT json_group_array(json_array(sid, at, json(vlast))) FROM (SELECT r.sid, min(r.at) AS at, r.vlast FROM json_each(@buckets) b CROSS JOIN ${table} r ON r.at = b.value AND r.sid IN (SELECT value FROM json_each(@sids)) GROUP BY r.sid)`,
			)
			.raw();
	return {
		keyframe: db.prepare(`SELECT max(at) FROM polls WHERE keyframe = 1 AND at <= ?`).raw(),
		atOrBefore: db
			.prepare(
				`SELECT json_group_array(json_array(sid, at, json(v))) FROM (SELECT r.sid, max(r.at) AS at, r.v FROM polls p CROSS JOIN raw r ON r.at = p.at AND r.sid IN (SELECT value FROM json_each(@sids)) WHERE p.at BETWEEN @keyframe AND @at GROUP BY r.sid)`,
			)
			.raw(),
		firstAfter: db
			.prepare(
				`SELECT json_group_array(json_array(sid, at, json(v))) FROM (SELECT r.sid, min(r.at) AS at, r.v FROM polls p CROSS JOIN raw r ON r.at = p.at AND r.sid IN (SELECT value FROM json_each(@sids)) WHERE p.at > @from AND p.at <= @to GROUP BY r.sid)`,
			)
			.raw(),
		firstOfBuckets: {minute: firstOfBuckets('minute'), hour: firstOfBuckets('hour')},
	};
}

const json = (row: unknown): Row[] => JSON.parse((row as [string])[0]) as Row[];

/**
Within the raw tier: each endpoint's counters at the start of the window that ends at the poll `end`,
as the live figures have them (the store's oldest sample of the window). A series is written only when
it changed (and whole at each keyframe), so its newest sample at or before the start, taken as of then;
else (new since, or the recording had a gap then) its first sample after it.
*/
function rawStarts(statements: ReturnType<typeof prepare>, end: number, sids: readonly number[]): Row[] {
	const from = end - figuresWindowMs;
	const keyframe = (statements.keyframe.get(from) as [number | null])[0];
	const starts =
		keyframe === null || from - keyframe > gapMs
			? []
			: json(statements.atOrBefore.get({keyframe, at: from, sids: JSON.stringify(sids)})).map(([sid, , values]): Row => [sid, from, values]);
	const found = new Set(starts.map(([sid]) => sid));
	const missing = sids.filter(sid => !found.has(sid));
	if (missing.length > 0) {
		starts.push(...json(statements.firstAfter.get({from, to: end, sids: JSON.stringify(missing)})));
	}

	return starts;
}

/**
What the endpoints' figures at a past moment are taken over: the window (5 minutes, as live; an hour at
the hour rollups, whose buckets are that wide) and each endpoint's sample at its start, by series id.
`end` is the last poll at the moment (raw), or the bucket it falls in (rollups): each bucket's last
values are taken, so the window's start is the first bucket of the window before it. At most two
reads for all the endpoints.
*/
export function figuresWindow(
	db: SqliteDatabase,
	tier: Tier,
	end: number,
	sids: readonly number[],
): {readonly windowMs: number; readonly starts: ReadonlyMap<number, HealthSample>} {
	let statements = prepared.get(db);
	if (!statements) {
		statements = prepare(db);
		prepared.set(db, statements);
	}

	const width = tierStepMs[tier];
	const windowMs = Math.max(width, figuresWindowMs);
	let rows: Row[];
	if (sids.length === 0) {
		rows = [];
	} else if (tier === 'raw') {
		rows = rawStarts(statements, end, sids);
	} else {
		const buckets: number[] = [];
		for (let each = end - windowMs; each < end; each += width) {
			buckets.push(each);
		}

		rows = json(statements.firstOfBuckets[tier].get({buckets: JSON.stringify(buckets), sids: JSON.stringify(sids)}));
	}

	return {windowMs, starts: new Map(rows.map(([sid, at, values]) => [sid, healthSampleOf(at, values)]))};
}

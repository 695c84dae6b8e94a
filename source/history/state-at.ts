import {endpointFigures} from '../store/endpoint-figures.js';
import type {Collection} from '../store/state.js';
import type {EndpointState, FiringAlert, GpuState, HealthSample, PodState, StockStatus} from '../store/types.js';
import {endpointAt, gpuAt, healthOf, podAt} from './fields.js';
import type {SqliteDatabase} from './history-file.js';
import type {PastAccount, SeriesKind, Tier} from './history-types.js';
import {keyframeMs} from './recorder.js';
import {tierStepMs} from './retention.js';

type Values = Array<number | null>;
type Span = {readonly from: number; readonly to: number} | undefined;

/** A moment further than this past the last keyframe is in a gap: nothing was recorded then. */
const gapMs = 2 * keyframeMs + 30_000;
/** Endpoint figures (throughput, failure rate, drain) are taken over this much before the moment, as the live ones are. */
const figuresMs = 5 * 60_000;

type Latest = Array<
	[sid: number, kind: SeriesKind, key: string, name: string | null, deletedAt: number | null, at: number, state: string | null, values: Values]
>;

const prepared = new WeakMap<SqliteDatabase, ReturnType<typeof prepare>>();

function prepare(db: SqliteDatabase) {
	const latestSelect = (inner: string) =>
		db
			.prepare(
				`SELECT json_group_array(json_array(l.sid, s.kind, s.key, s.name, s.deleted_at, l.at, l.state, json(l.v))) FROM (${inner}) l JOIN series s ON s.id = l.sid`,
			)
			.raw();
	return {
		keyframe: db.prepare(`SELECT max(at) FROM polls WHERE keyframe = 1 AND at <= ?`).raw(),
		keyframeAfter: db.prepare(`SELECT max(at) FROM polls WHERE keyframe = 1 AND at BETWEEN ? AND ?`).raw(),
		rawLatest: latestSelect(`SELECT sid, max(at) AS at, state, v FROM raw WHERE at BETWEEN ? AND ? GROUP BY sid`),
		rollupLatest: {
			minute: latestSelect(`SELECT sid, at, state, vlast AS v FROM minute WHERE at = ?`),
			hour: latestSelect(`SELECT sid, at, state, vlast AS v FROM hour WHERE at = ?`),
		},
		rawValuesAt: db.prepare(`SELECT json_group_array(json_array(sid, at, json(v))) FROM raw WHERE at = ? AND sid IN (SELECT value FROM json_each(?))`).raw(),
		rollupValuesAt: {
			minute: db
				.prepare(`SELECT json_group_array(json_array(sid, at, json(vlast))) FROM minute WHERE at = ? AND sid IN (SELECT value FROM json_each(?))`)
				.raw(),
			hour: db.prepare(`SELECT json_group_array(json_array(sid, at, json(vlast))) FROM hour WHERE at = ? AND sid IN (SELECT value FROM json_each(?))`).raw(),
		},
		records: db
			.prepare(
				`SELECT json_group_array(json_array(j.value, coalesce((SELECT record FROM records WHERE sid = j.value AND at <= ? ORDER BY at DESC LIMIT 1), (SELECT record FROM records WHERE sid = j.value ORDER BY at LIMIT 1)))) FROM json_each(?) j`,
			)
			.raw(),
		alert: db.prepare(`SELECT data FROM events WHERE ref = ? AND type = 'alert.firing' AND at <= ? ORDER BY at DESC LIMIT 1`).raw(),
	};
}

const json = <T>(row: unknown): T => JSON.parse((row as [string])[0]) as T;

const sample = (at: number, values: Values): HealthSample => {
	const health = healthOf(values);
	return {
		at,
		inQueue: health.jobs.inQueue,
		inProgress: health.jobs.inProgress,
		completed: health.jobs.completed,
		failed: health.jobs.failed,
		retried: health.jobs.retried,
		running: health.workers.running,
	};
};

const collection = <S>(byId: Record<string, S>, order: string[], at: number): Collection<S> => ({byId, order, updatedAt: at});

/**
The account as recorded at `at`: within the raw tier, each thing's newest sample since the last
keyframe before it (every thing is written whole once a minute, so that is a short scan); further
back, the minute or hour rollup the moment falls in (its last values). Undefined when nothing was
recorded then (before the first sample, or in a gap while podtop was not running).
*/
export function stateAt(db: SqliteDatabase, at: number, spans: Readonly<Record<Tier, Span>>): PastAccount | undefined {
	let statements = prepared.get(db);
	if (!statements) {
		statements = prepare(db);
		prepared.set(db, statements);
	}

	const tier: Tier | undefined =
		spans.raw && at >= spans.raw.from ? 'raw' : spans.minute && at >= spans.minute.from ? 'minute' : spans.hour && at >= spans.hour.from ? 'hour' : undefined;
	if (!tier) {
		return undefined;
	}

	let latest: Latest;
	let before: Array<[number, number, Values]> = [];
	const endpointSids = () => latest.filter(row => row[1] === 'endpoint').map(row => row[0]);
	if (tier === 'raw') {
		const keyframe = (statements.keyframe.get(at) as [number | null])[0];
		if (keyframe === null || at - keyframe > gapMs) {
			return undefined;
		}

		latest = json<Latest>(statements.rawLatest.get(keyframe, at));
		const earlier = (statements.keyframeAfter.get(at - figuresMs - 2 * keyframeMs, at - figuresMs) as [number | null])[0];
		if (earlier !== null) {
			before = json(statements.rawValuesAt.get(earlier, JSON.stringify(endpointSids())));
		}
	} else {
		const width = tierStepMs[tier];
		const bucket = Math.floor(at / width) * width;
		latest = json<Latest>(statements.rollupLatest[tier].get(bucket));
		if (latest.length === 0) {
			return undefined;
		}

		before = json(statements.rollupValuesAt[tier].get(bucket - Math.max(width, figuresMs), JSON.stringify(endpointSids())));
	}

	// A thing deleted after its last sample and before the moment was gone by then.
	latest = latest.filter(row => {
		const [deletedAt, sampleAt] = [row[4], row[5]];
		return deletedAt === null || deletedAt <= sampleAt || deletedAt > at;
	});
	latest.sort((a, b) => a[0] - b[0]);
	const records = new Map(
		json<Array<[number, string | null]>>(statements.records.get(at, JSON.stringify(latest.map(row => row[0])))).map(([sid, record]) => [
			sid,
			record ? (JSON.parse(record) as Record<string, unknown>) : undefined,
		]),
	);
	const earlierBySid = new Map(before.map(([sid, sampleAt, values]) => [sid, sample(sampleAt, values)]));

	const endpoints: Record<string, EndpointState> = {};
	const pods: Record<string, PodState> = {};
	const gpus: Record<string, GpuState> = {};
	const order = {endpoint: [] as string[], pod: [] as string[], gpu: [] as string[]};
	let alertIds: string[] = [];
	for (const [sid, kind, key, name, , sampleAt, state, values] of latest) {
		const stored = records.get(sid) ?? {};
		switch (kind) {
			case 'endpoint': {
				const record = endpointAt({id: key, name: name ?? key, ...stored}, values);
				const now = sample(sampleAt, values);
				const earlier = earlierBySid.get(sid);
				const history = earlier && earlier.at < sampleAt ? [earlier, now] : [now];
				endpoints[key] = {record, health: healthOf(values), healthAt: sampleAt, history, figures: endpointFigures(history)};
				order.endpoint.push(key);
				break;
			}

			case 'pod': {
				pods[key] = {record: podAt({id: key, name, ...stored}, {state: state ?? undefined, values}), utilHistory: []};
				order.pod.push(key);
				break;
			}

			case 'gpu': {
				const record = gpuAt({id: key, displayName: name, ...stored}, {state: state ?? undefined, values});
				gpus[key] = {record, stockHistory: [(state ?? 'Unknown') as StockStatus]};
				order.gpu.push(key);
				break;
			}

			case 'account': {
				alertIds = state ? (JSON.parse(state) as string[]) : [];
				break;
			}
		}
	}

	const alerts = alertIds.flatMap(id => {
		const row = statements.alert.get(id, at) as [string] | undefined;
		return row ? [JSON.parse(row[0]) as FiringAlert] : [];
	});
	const shownAt = latest.reduce((newest, row) => Math.max(newest, row[5]), 0);
	return {
		at,
		tier,
		endpoints: collection(endpoints, order.endpoint, shownAt),
		pods: collection(pods, order.pod, shownAt),
		gpus: collection(gpus, order.gpu, shownAt),
		serverlessDiscount: undefined,
		connection: {jobApi: {lastSuccessAt: shownAt}, graphql: {lastSuccessAt: shownAt}},
		alerts,
	};
}

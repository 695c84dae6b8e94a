import type {EndpointRecord} from '../model/endpoint.js';
import type {GpuTypeRecord} from '../model/gpu-type.js';
import type {PodRecord} from '../model/pod.js';
import {endpointFigures} from '../store/endpoint-figures.js';
import type {Collection} from '../store/state.js';
import type {EndpointState, FiringAlert, GpuState, PodState, StockStatus} from '../store/types.js';
import {endpointAt, gpuAt, healthOf, healthSampleOf, podAt} from './fields.js';
import type {SqliteDatabase} from './history-file.js';
import type {PastAccount, StateAtOptions, Tier} from './history-types.js';
import {flatList, keepMade, type KnownSeriesRow, lastMade, recordsAt, seriesById} from './read-cache.js';
import {figuresWindow} from './figures-window.js';
import {gapMs} from './keyframe.js';
import {PastPod} from './past-pod.js';
import {tierStepMs} from './retention.js';
import {workersAt} from './workers-at.js';

type Values = Array<number | null>;
type Span = {readonly from: number; readonly to: number} | undefined;

const prepared = new WeakMap<SqliteDatabase, ReturnType<typeof prepare>>();

function prepare(db: SqliteDatabase) {
	// Flat text (sid, at, state, values, sid, …) made by concatenation: no JSON parsed and re-made in SQLite, no join (the series are kept: read-cache.ts).
	// Each read two ways: every thing whole (the pods are on screen), or every thing as sid and time only (no state or values
	// read: 10,000 pods' samples at a poll, 12 → 2 ms), the values of all but the pods then sought by key (`valuesAt`'s seek),
	// the pods' when first asked (`readPodValues`): the Endpoints pane's step reads no pod's values.
	const latestSelect = (inner: string, times: string) => ({
		all: db.prepare(`SELECT group_concat(sid || ',' || at || ',' || json_quote(state) || ',' || v, ',') FROM (${inner})`).raw(),
		times: db.prepare(`SELECT group_concat(sid || ',' || at, ',') FROM (${times})`).raw(),
	});
	// Samples by sid and time: the things not pods a read by times found, and the pods' when first asked. For the pods, the time
	// most share (the last poll, the rollup's bucket) by a scan of it (10,000 pods: 5 ms), the others each by its key (a seek
	// each, 20 ms for as many).
	const valuesAt = (table: string, v: string) => ({
		scan: db.prepare(`SELECT group_concat(sid || ',' || json_quote(state) || ',' || ${v}, ',') FROM ${table} WHERE at = ?`).raw(),
		seek: db
			.prepare(
				`SELECT group_concat(r.sid || ',' || json_quote(r.state) || ',' || r.${v}, ',') FROM json_each(?) j CROSS JOIN ${table} r ON r.at = j.value ->> 1 AND r.sid = j.value ->> 0`,
			)
			.raw(),
	});
	return {
		keyframe: db.prepare(`SELECT max(at) FROM polls WHERE keyframe = 1 AND at <= ?`).raw(),
		poll: db.prepare(`SELECT max(at) FROM polls WHERE at <= ?`).raw(),
		// The last poll's samples as they are; then only the things it did not write, sought at each poll before it back to the
		// keyframe (a seek per poll and thing, not a scan of every sample since the keyframe: 10,000 pods, 35-90 → 15-30 ms).
		rawPoll: latestSelect(`SELECT sid, at, state, v FROM raw WHERE at = @at`, `SELECT sid, at FROM raw WHERE at = @at`),
		rawBefore: latestSelect(
			`SELECT r.sid, max(r.at) AS at, r.state, r.v FROM polls p CROSS JOIN raw r ON r.at = p.at AND r.sid IN (SELECT value FROM json_each(@others)) WHERE p.at >= @keyframe AND p.at < @at GROUP BY r.sid`,
			`SELECT r.sid, max(r.at) AS at FROM polls p CROSS JOIN raw r ON r.at = p.at AND r.sid IN (SELECT value FROM json_each(@others)) WHERE p.at >= @keyframe AND p.at < @at GROUP BY r.sid`,
		),
		rollupLatest: {
			minute: latestSelect(`SELECT sid, at, state, vlast AS v FROM minute WHERE at = @at`, `SELECT sid, at FROM minute WHERE at = @at`),
			hour: latestSelect(`SELECT sid, at, state, vlast AS v FROM hour WHERE at = @at`, `SELECT sid, at FROM hour WHERE at = @at`),
		},
		valuesAt: {raw: valuesAt('raw', 'v'), minute: valuesAt('minute', 'vlast'), hour: valuesAt('hour', 'vlast')},
		alert: db.prepare(`SELECT data FROM events WHERE ref = ? AND type = 'alert.firing' AND at <= ? ORDER BY at DESC LIMIT 1`).raw(),
	};
}

const collection = <S>(byId: Record<string, S>, order: string[], at: number): Collection<S> => ({byId, order, updatedAt: at});

/**
A collection whose states are made when first read: a past account of 10,000 pods is read at each
step of the time cursor, and only the Pods pane reads its pods (the others their count).
*/
function lazyCollection<S>(build: () => Record<string, S>, order: string[], at: number): Collection<S> {
	let byId: Record<string, S> | undefined;
	// Let go once built: what it reads (the samples of 10,000 pods) is not kept with the account.
	let make: (() => Record<string, S>) | undefined = build;
	return {
		get byId() {
			if (make) {
				byId = make();
				make = undefined;
			}

			return byId!;
		},
		order,
		updatedAt: at,
	};
}

/** One thing's newest sample at the moment, with what the file says of the thing. */
type Latest = {
	readonly sid: number;
	readonly thing: KnownSeriesRow;
	readonly at: number;
	readonly state: string | null;
	/** Null for a pod read as sid and time only (its values read when first asked). */
	readonly values: Values | null;
};

/** A thing deleted after its last sample (at `at`) and before the moment was gone by then. */
const present = (thing: KnownSeriesRow, at: number, moment: number) => thing.deletedAt === undefined || thing.deletedAt <= at || thing.deletedAt > moment;

/** The rows of a `latestSelect` read whole, of things known and not yet gone at the moment, in the order they were first seen. */
function latestRows(row: unknown, series: ReadonlyMap<number, KnownSeriesRow>, moment: number): Latest[] {
	const flat = flatList(row);
	const rows: Latest[] = [];
	for (let index = 0; index < flat.length; index += 4) {
		const sid = flat[index] as number;
		const at = flat[index + 1] as number;
		const thing = series.get(sid);
		if (thing && present(thing, at, moment)) {
			rows.push({sid, thing, at, state: flat[index + 2] as string | null, values: flat[index + 3] as Values});
		}
	}

	return rows.sort((a, b) => a.sid - b.sid);
}

/**
The rows of a `latestSelect` read as sid and time, as `latestRows` gives them: the things not pods with
their state and values, sought by key; the pods' left to read when first asked (state and values null).
*/
function latestTimes(statements: ReturnType<typeof prepare>, tier: Tier, row: unknown, series: ReadonlyMap<number, KnownSeriesRow>, moment: number): Latest[] {
	const flat = flatList(row);
	const rows: Latest[] = [];
	const wanted: Array<[number, number]> = [];
	for (let index = 0; index < flat.length; index += 2) {
		const sid = flat[index] as number;
		const at = flat[index + 1] as number;
		const thing = series.get(sid);
		if (thing && present(thing, at, moment)) {
			rows.push({sid, thing, at, state: null, values: null});
			if (thing.kind !== 'pod') {
				wanted.push([sid, at]);
			}
		}
	}

	const found = new Map<number, {state: string | null; values: Values}>();
	if (wanted.length > 0) {
		const sought = flatList(statements.valuesAt[tier].seek.get(JSON.stringify(wanted)));
		for (let index = 0; index < sought.length; index += 3) {
			found.set(sought[index] as number, {state: sought[index + 1] as string | null, values: sought[index + 2] as Values});
		}
	}

	return rows
		.map(each => {
			const sample = found.get(each.sid);
			return sample ? {...each, ...sample} : each;
		})
		.sort((a, b) => a.sid - b.sid);
}

/** Reads the values of the pods the first read found as sid and time only, into `bySid`. */
function readPodValues(
	statements: ReturnType<typeof prepare>,
	tier: Tier,
	samples: readonly Latest[],
	times: ReadonlyMap<number, number>,
	bySid: Map<number, {state: string | null; values: Values}>,
): void {
	const [common] = [...times].reduce((most, each) => (each[1] > most[1] ? each : most));
	const wanted = new Map(samples.flatMap(row => (row.values === null ? [[row.sid, row.at] as const] : [])));
	const put = (flat: unknown[], index: number) => {
		bySid.set(flat[index] as number, {state: flat[index + 1] as string | null, values: flat[index + 2] as Values});
	};

	const {scan, seek} = statements.valuesAt[tier];
	// The scan holds every thing of that time: only the pods whose sample it is are taken.
	const scanned = flatList(scan.get(common));
	for (let index = 0; index < scanned.length; index += 3) {
		if (wanted.get(scanned[index] as number) === common) {
			put(scanned, index);
		}
	}

	const rest = samples.filter(row => row.values === null && row.at !== common).map(row => [row.sid, row.at]);
	if (rest.length > 0) {
		const sought = flatList(seek.get(JSON.stringify(rest)));
		for (let index = 0; index < sought.length; index += 3) {
			put(sought, index);
		}
	}
}

/**
The pods' states at the moment, from the samples the first read found (each pod's sid and time): their
values and records read now, by key. A sample gone since (pruned past its tier's retention while the
moment stayed on screen) leaves the pod as its stored record says. A pod with the same status, values
and stored record as at the moment read before keeps the state made then (a step of the time cursor:
a sixth of 10,000 pods, whose rows the Pods pane then keeps too).
*/
function podsAt(db: SqliteDatabase, statements: ReturnType<typeof prepare>, tier: Tier, at: number, samples: readonly Latest[]): Record<string, PodState> {
	const pods: Record<string, PodState> = {};
	if (samples.length === 0) {
		return pods;
	}

	// Only pods read as sid and time have their values read now, by the time of their sample.
	const bySid = new Map<number, {state: string | null; values: Values}>();
	const times = new Map<number, number>();
	for (const row of samples) {
		if (row.values === null) {
			times.set(row.at, (times.get(row.at) ?? 0) + 1);
		}
	}

	if (times.size > 0) {
		readPodValues(statements, tier, samples, times, bySid);
	}

	const records = recordsAt(
		db,
		at,
		samples.map(row => row.sid),
	);
	const before = lastMade<PastPod>(db);
	const made: PastPod[] = [];
	for (const row of samples) {
		const {sid, thing} = row;
		const {key, name} = thing;
		const stored = (records[sid]?.record as PodRecord | undefined) ?? {id: key, name};
		const found = row.values === null ? bySid.get(sid) : (row as {state: string | null; values: Values});
		if (!found) {
			pods[key] = {record: podAt(stored, undefined), utilHistory: []};
			continue;
		}

		const was = before[sid];
		const pod = was?.madeOf(stored, found.state, found.values, at) ? was : new PastPod(stored, found.state, found.values, at);
		made[sid] = pod;
		pods[key] = pod;
	}

	keepMade(db, made);
	return pods;
}

/**
The account as recorded at `at`: within the raw tier, each thing's newest sample since the last
keyframe before it (every thing is written whole once a minute, so that is a short scan); further
back, the minute or hour rollup the moment falls in (its last values). Undefined when nothing was
recorded then (before the first sample, or in a gap while podtop was not running).
*/
export function stateAt(db: SqliteDatabase, at: number, spans: Readonly<Record<Tier, Span>>, options: StateAtOptions = {}): PastAccount | undefined {
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

	const series = seriesById(db);
	/** One of the `latestSelect`s, every thing whole or the pods as sid and time only. */
	const latestOf = (select: typeof statements.rawPoll, parameters: Record<string, unknown>): Latest[] =>
		options.pods ? latestRows(select.all.get(parameters), series, at) : latestTimes(statements, tier, select.times.get(parameters), series, at);
	let latest: Latest[];
	/** Where the endpoints' figures end: the last poll, or the rollup's bucket. */
	let windowEnd: number;
	if (tier === 'raw') {
		const keyframe = (statements.keyframe.get(at) as [number | null])[0];
		if (keyframe === null || at - keyframe > gapMs) {
			return undefined;
		}

		const poll = (statements.poll.get(at) as [number])[0];
		latest = latestOf(statements.rawPoll, {at: poll});
		if (poll > keyframe) {
			// By series id (a list, not a set: 10,000 pods).
			const written: boolean[] = [];
			for (const row of latest) {
				written[row.sid] = true;
			}

			// Things that may have samples since the keyframe: seen by then, and not gone before it (a thing has no samples while deleted).
			const others: number[] = [];
			for (const thing of series.values()) {
				if (!written[thing.id] && thing.firstAt <= poll && (thing.deletedAt === undefined || thing.deletedAt >= keyframe)) {
					others.push(thing.id);
				}
			}

			if (others.length > 0) {
				const found = latestOf(statements.rawBefore, {at: poll, keyframe, others: JSON.stringify(others)});
				latest = [...latest, ...found].sort((a, b) => a.sid - b.sid);
			}
		}

		windowEnd = poll;
	} else {
		const width = tierStepMs[tier];
		const bucket = Math.floor(at / width) * width;
		latest = latestOf(statements.rollupLatest[tier], {at: bucket});
		if (latest.length === 0) {
			return undefined;
		}

		windowEnd = bucket;
	}

	const records = recordsAt(
		db,
		at,
		latest.filter(row => row.thing.kind !== 'pod').map(row => row.sid),
	);
	const endpointSids = latest.filter(row => row.thing.kind === 'endpoint').map(row => row.sid);
	const {windowMs, starts} = figuresWindow(db, tier, windowEnd, endpointSids);
	const endpoints: Record<string, EndpointState> = {};
	const podSamples: Latest[] = [];
	const gpus: Record<string, GpuState> = {};
	const order = {endpoint: [] as string[], pod: [] as string[], gpu: [] as string[]};
	let alertIds: string[] = [];
	let shownAt = 0;
	for (const row of latest) {
		const {sid, thing, at: sampleAt, state} = row;
		// Only a pod's may be left to read later (the rest are in `whole`, made from the same series).
		const values = row.values ?? [];
		const {key, name} = thing;
		shownAt = Math.max(shownAt, sampleAt);
		// A stored record holds its id and name (a thing's first record is written with its first sample); the series' are for one that has none.
		const stored = records[sid]?.record;
		switch (thing.kind) {
			case 'endpoint': {
				const record = endpointAt((stored as EndpointRecord | undefined) ?? {id: key, name: name ?? key}, values);
				// As the live figures are: from the counters at the window's start to those at its end (a sample is written only when it changed).
				const now = healthSampleOf(windowEnd, values);
				const start = starts.get(sid);
				const history = start && start.at < now.at ? [start, now] : [now];
				endpoints[key] = {record, health: healthOf(values), healthAt: sampleAt, history, figures: endpointFigures(history, windowMs)};
				order.endpoint.push(key);
				break;
			}

			case 'pod': {
				order.pod.push(key);
				podSamples.push(row);
				break;
			}

			case 'gpu': {
				const record = gpuAt((stored as GpuTypeRecord | undefined) ?? {id: key, displayName: name}, {state: state ?? undefined, values});
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
	let workers: ReturnType<typeof workersAt> | undefined;
	return {
		at,
		tier,
		// Read when first asked (the details, the diagnosis), by a seek per endpoint.
		get workers() {
			workers ??= workersAt(db, at, order.endpoint);
			return workers;
		},
		endpoints: collection(endpoints, order.endpoint, shownAt),
		pods: lazyCollection(() => podsAt(db, statements, tier, at, podSamples), order.pod, shownAt),
		gpus: collection(gpus, order.gpu, shownAt),
		serverlessDiscount: undefined,
		connection: {jobApi: {lastSuccessAt: shownAt}, graphql: {lastSuccessAt: shownAt}},
		alerts,
	};
}

import {stockOf} from '../store/gpu-stock.js';
import {type PodtopState, type Collection} from '../store/state.js';
import {accountSample, alertData, countRunning, type RunningPods} from './account-sample.js';
import {endpointRecordPart, gpuRecordPart, podRecordPart} from './fields.js';
import {jobEvent, type EventRow} from './event-rows.js';
import type {SeriesKind} from './history-types.js';
import {endpointValues, type FilledValues, gpuValues, podValues, sameValues} from './sample-values.js';
import {emptyTracked, keepNext, writtenText, type KnownSeries, thingKey, type Tracked, type TrackedKind, type TrackedThings, trackedOf} from './tracked.js';
import {sameExcept} from './unchanged.js';
import {createSampleRows, type RowLists, type Rows, type SampleRows} from './sample-rows.js';

export type {EventRow} from './event-rows.js';
export type {KnownSeries} from './tracked.js';
export {thingKey} from './tracked.js';

/** What one flush writes, before series ids are known. */
export type Batch = {
	/** The things below that the file does not hold as they are now: new, renamed, deleted or back. */
	readonly things: Map<string, {readonly kind: SeriesKind; readonly key: string; readonly name: string}>;
	/**
	Samples as stored, by their state (or null), two values a row (no object made per row): the
	series' id (or the thing's key, for one the file has no series of yet; the writer puts the id in
	its place) and the values' JSON text. The writer binds a state once per statement, not per row.
	The lists are the recorder's, filled again by its next batch (`Written.rowLists`).
	*/
	readonly samples: Map<string | null, Rows>;
	readonly records: Array<{readonly thing: string; readonly record: string}>;
	readonly deleted: string[];
	readonly events: EventRow[];
	/** Marks kept with the batch, in the same transaction (how far the audit log was read). */
	readonly meta: Map<string, string>;
};

/** A sample as written: its state and the values' JSON text. */
export type WrittenSample = {readonly state: string | undefined; readonly values: string};

/**
What has been written so far, so that only changes are written again. Updated after each commit.
Each thing's sample and record as last written are kept with it (`things`); its sample is that of
its state in the store at the last write (the recorder keeps that state).
*/
export type Written = {
	/** The account's sample (it has no state object of its own). */
	readonly samples: Map<string, WrittenSample>;
	readonly jobStatus: Map<string, string>;
	readonly things: TrackedThings;
	/** The lists of samples by state, filled by each batch in turn (`sample-rows.ts`). */
	readonly rowLists: RowLists;
	/** The list of things a batch holds `next*` of (`PendingWrites.things`), filled by each batch in turn. */
	readonly pendingThings: Tracked[];
};

/** Updates to `Written`, applied once a batch is committed. */
export type PendingWrites = {
	readonly samples: Map<string, WrittenSample>;
	readonly jobStatus: Map<string, string>;
	/** The things whose `next*` the batch holds (`commitTracked`): the first `thingCount` of the list (kept from batch to batch: 10,000 pods' list grown each poll was 230 KB). */
	readonly things: Tracked[];
	thingCount: number;
};

export const emptyWritten = (): Written => ({samples: new Map(), jobStatus: new Map(), things: emptyTracked(), rowLists: new Map(), pendingThings: []});

const emptyPending = (things: Tracked[]): PendingWrites => ({samples: new Map(), jobStatus: new Map(), things, thingCount: 0});

export const emptyBatch = (): Batch => ({things: new Map(), samples: new Map(), records: [], deleted: [], events: [], meta: new Map()});

export const isEmptyBatch = (batch: Batch) => batch.samples.size + batch.records.length + batch.deleted.length + batch.events.length + batch.meta.size === 0;

type KindSpec<S extends {readonly record: object}> = {
	readonly kind: Exclude<SeriesKind, 'account'>;
	readonly name: (state: S) => string;
	/** Its sample's values, filled in place (`sample-values.ts`), or undefined when there is nothing to record (an endpoint with no health yet). */
	readonly values: (state: S) => FilledValues | undefined;
	/** Its sample's state (a pod's status, a GPU type's stock word). */
	readonly sampleState: (state: S) => string | undefined;
	readonly recordPart: (state: S) => unknown;
	/** The keys `recordPart` leaves out: a record whose other keys are equal to the last one's has the same part (no JSON made). */
	readonly partOmits?: readonly string[];
	/** A change worth a timeline event (a pod's status), from the previous state of the same thing. */
	readonly statusOf?: (state: S) => string | undefined;
	/** Counts every thing of the collection (in its order) into the account's figures (the running pods). */
	readonly tally?: (state: S | undefined, totals: RunningPods) => void;
};

type Options = {
	/** Write every live thing whole (the minute's keyframe), not only what changed. */
	readonly keyframe: boolean;
	/** What the file holds of a thing (undefined: never seen, so a new id after the first list is a creation worth an event). */
	readonly known: (thing: string) => KnownSeries | undefined;
	readonly batch: Batch;
	/** The batch's samples, by state (put into `batch.samples` once all are in). */
	readonly rows: SampleRows;
	readonly written: Written;
	/** Updates to `written`, applied once the batch is committed. */
	readonly pending: PendingWrites;
	/** The account's figures, counted by the kind's `tally` in the same walk (undefined: the walk did not see every thing in its order). */
	totals?: RunningPods;
};

/** A thing's sample written again as it was last written (the keyframe of a thing unchanged since). */
function pushUnchanged<S extends {readonly record: object}>(spec: KindSpec<S>, tracked: Tracked, state: S, rows: SampleRows): void {
	const ref = tracked.series?.id ?? tracked.thing;
	if (tracked.sampled) {
		rows.add(ref, tracked.state, writtenText(tracked));
		return;
	}

	const values = spec.values(state);
	if (values) {
		rows.add(ref, spec.sampleState(state), JSON.stringify(values));
	}
}

/**
A changed thing's sample, written when it differs from the one last written (always at a keyframe
or when the thing is new or back): compared as numbers, its JSON made only when it is written (and
let go with the batch).
Returns whether it was written. What was last written is then its sample (`next*`, once committed).
*/
function pushSample(tracked: Tracked, state: string | undefined, values: FilledValues | undefined, always: boolean, rows: SampleRows): boolean {
	const had = tracked.sampled;
	const same = had && values !== undefined && tracked.state === state && sameValues(tracked.values, values);
	if (!same && (values !== undefined || had)) {
		if (values) {
			keepNext(tracked, values);
		}

		tracked.nextSampled = values !== undefined;
		tracked.nextState = state;
		tracked.pendingSample = true;
	}

	if (!values || (same && !always)) {
		return false;
	}

	// Equal values have equal text (0 and -0 both write 0): written again unchanged at a keyframe, the text is kept.
	rows.add(tracked.series?.id ?? tracked.thing, state, same ? (tracked.text ??= JSON.stringify(values)) : JSON.stringify(values));
	return true;
}

/** Each collection's ids as its map holds them, by its order: the same list polled again keeps its order (`mergeRecords`), and so its ids. */
const idsByOrder = new WeakMap<readonly string[], readonly string[]>();

/**
A collection's ids by the map's own keys: a lookup with a key the map holds is cheap, one with a string
fresh from the last poll's JSON (or made here) is not (10,000 pods: half the time of a flush went to
those lookups). Listed once per order: a list of 10,000 keys made at every poll was a sixth of a flush's garbage.
*/
function idsOf(collection: Collection<unknown>): readonly string[] {
	let ids = idsByOrder.get(collection.order);
	if (!ids) {
		ids = Object.keys(collection.byId);
		idsByOrder.set(collection.order, ids);
	}

	return ids;
}

function collectionChanges<S extends {readonly record: object}>(
	spec: KindSpec<S>,
	previous: Collection<S> | undefined,
	next: Collection<S>,
	options: Options,
): void {
	const {keyframe, known, batch, rows, written, pending} = options;
	if (!keyframe && previous === next) {
		return;
	}

	const things: TrackedKind = written.things[spec.kind];
	const ids = idsOf(next);
	const {order} = next;
	const {tally} = spec;
	// The account's figures in the same walk, when the map's keys are the list's order (each id once, as the service lists them).
	let totals: RunningPods | undefined = tally && ids.length === order.length ? {running: 0, cost: 0} : undefined;
	let kept = 0;
	// eslint-disable-next-line unicorn/no-for-loop -- the index walks the list's order beside the keys
	for (let index = 0; index < ids.length; index++) {
		const id = ids[index]!;
		const state = next.byId[id];
		const before = previous?.byId[id];
		if (before) {
			kept++;
		}

		if (totals) {
			if (order[index] === id) {
				tally!(state, totals);
			} else {
				totals = undefined;
			}
		}

		if (!state || (!keyframe && before === state)) {
			continue;
		}

		const tracked = trackedOf(things, spec.kind, id);
		tracked.series ??= known(tracked.thing);
		if (before === state) {
			// The minute's keyframe, for a thing unchanged since the last write: written again as it was.
			pushUnchanged(spec, tracked, state, rows);
			continue;
		}

		// A batch not committed (nothing in it) may have left its marks: this one starts afresh.
		tracked.pendingSample = false;
		tracked.pendingRecord = false;
		const name = spec.name(state);
		const entry = tracked.series;
		let touched = false;
		if (!before && previous && previous.order.length > 0 && !entry) {
			touched = true;
			batch.events.push({type: 'created', kind: spec.kind, subject: id, name, data: {}});
		}

		const samePart =
			before !== undefined &&
			spec.partOmits !== undefined &&
			sameExcept(before.record as Record<string, unknown>, state.record as Record<string, unknown>, spec.partOmits);
		if (!samePart) {
			const record = JSON.stringify(spec.recordPart(state));
			if (tracked.record !== record) {
				touched = true;
				batch.records.push({thing: tracked.thing, record});
				tracked.nextRecord = record;
				tracked.pendingRecord = true;
			}
		}

		if (pushSample(tracked, spec.sampleState(state), spec.values(state), keyframe || !before, rows)) {
			touched = true;
		}

		if (tracked.pendingSample || tracked.pendingRecord) {
			pending.things[pending.thingCount++] = tracked;
		}

		const status = spec.statusOf?.(state);
		const statusBefore = before ? spec.statusOf?.(before) : undefined;
		if (before && status !== statusBefore) {
			touched = true;
			batch.events.push({type: 'status', kind: spec.kind, subject: id, name, data: {from: statusBefore ?? null, to: status ?? null}});
		}

		// Its series first, before anything of it is written: added, renamed or back.
		if (touched && (!entry || entry.deleted || entry.name !== name)) {
			batch.things.set(tracked.thing, {kind: spec.kind, key: id, name});
		}
	}

	if (totals) {
		options.totals = totals;
	}

	// Something left only when fewer of the previous things are still here.
	if (previous && previous !== next && kept < previous.order.length) {
		for (const id of Object.keys(previous.byId)) {
			const before = previous.byId[id];
			if (!next.byId[id] && before) {
				const thing = things.get(id)?.thing ?? thingKey(spec.kind, id);
				const name = spec.name(before);
				batch.things.set(thing, {kind: spec.kind, key: id, name});
				batch.deleted.push(thing);
				batch.events.push({type: 'deleted', kind: spec.kind, subject: id, name, data: {}});
			}
		}
	}
}

const endpointSpec: KindSpec<PodtopState['endpoints']['byId'][string]> = {
	kind: 'endpoint',
	name: state => state.record.name || state.record.id,
	values: state => (state.health ? endpointValues(state.record, state.health) : undefined),
	sampleState: () => undefined,
	recordPart: state => endpointRecordPart(state.record),
	partOmits: ['pods'],
};

const podSpec: KindSpec<PodtopState['pods']['byId'][string]> = {
	kind: 'pod',
	name: state => state.record.name || state.record.id,
	values: state => podValues(state.record),
	sampleState: state => state.record.desiredStatus ?? undefined,
	recordPart: state => podRecordPart(state.record),
	partOmits: ['runtime', 'desiredStatus', 'costPerHr', 'env'],
	statusOf: state => state.record.desiredStatus ?? undefined,
	tally(state, totals) {
		countRunning(state?.record, totals);
	},
};

const gpuSpec: KindSpec<PodtopState['gpus']['byId'][string]> = {
	kind: 'gpu',
	name: state => state.record.displayName || state.record.id,
	values: state => gpuValues(state.record),
	sampleState: state => stockOf(state.record),
	recordPart: state => gpuRecordPart(state.record),
};

/**
What changed between the state last written and the state now, as one batch: samples of things
whose state object changed (all of them at a keyframe), records that changed, things gone, and
the timeline's events (created, deleted, status, alerts, tracked jobs whose status moved).
*/
export function collectChanges(
	previous: PodtopState | undefined,
	next: PodtopState,
	changedJobs: ReadonlySet<string>,
	options: Omit<Options, 'batch' | 'rows' | 'pending'>,
): {readonly batch: Batch; readonly pending: PendingWrites} {
	const batch = emptyBatch();
	const pending = emptyPending(options.written.pendingThings);
	const rows = createSampleRows(options.written.rowLists);
	const full: Options = {...options, batch, rows, pending};
	collectionChanges(endpointSpec, previous?.endpoints, next.endpoints, full);
	collectionChanges(podSpec, previous?.pods, next.pods, full);
	collectionChanges(gpuSpec, previous?.gpus, next.gpus, full);

	const accountChanged =
		options.keyframe || previous?.pods !== next.pods || previous.alerts !== next.alerts || previous.endpoints.order !== next.endpoints.order;
	if (accountChanged && (next.pods.updatedAt !== undefined || next.endpoints.updatedAt !== undefined)) {
		const thing = thingKey('account', 'account');
		const sample = accountSample(next, full.totals);
		const values = JSON.stringify(sample.values);
		const last = options.written.samples.get(thing);
		if (options.keyframe || last?.state !== sample.state || last?.values !== values) {
			if (!options.known(thing)) {
				batch.things.set(thing, {kind: 'account', key: 'account', name: 'account'});
			}

			rows.add(thing, sample.state, values);
			pending.samples.set(thing, {state: sample.state, values});
		}
	}

	if (previous && previous.alerts !== next.alerts) {
		const before = new Map(previous.alerts.map(alert => [alert.id, alert]));
		const after = new Set(next.alerts.map(alert => alert.id));
		for (const alert of next.alerts) {
			if (!before.has(alert.id)) {
				batch.events.push({type: 'alert.firing', subject: alert.subject, name: alert.subjectName, ref: alert.id, data: alertData(alert)});
			}
		}

		for (const alert of previous.alerts) {
			if (!after.has(alert.id)) {
				batch.events.push({type: 'alert.resolved', subject: alert.subject, name: alert.subjectName, ref: alert.id, data: alertData(alert)});
			}
		}
	}

	for (const key of changedJobs) {
		const job = next.jobs.byKey.get(key);
		if (!job || options.written.jobStatus.get(key) === job.status) {
			continue;
		}

		pending.jobStatus.set(key, job.status);
		batch.events.push(jobEvent(job, next.endpoints.byId[job.endpointId]?.record.name ?? job.endpointId));
	}

	rows.finish(batch.samples);
	return {batch, pending};
}

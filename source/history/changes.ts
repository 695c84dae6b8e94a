import {type PodtopState, type Collection} from '../store/state.js';
import type {FiringAlert} from '../store/types.js';
import {endpointRecordPart, endpointStateSample, gpuRecordPart, gpuStateSample, podRecordPart, podStateSample, type Sample} from './fields.js';
import {jobEvent, type EventRow} from './event-rows.js';
import type {SeriesKind} from './history-types.js';
import {sameExcept, sameSample} from './unchanged.js';

/** A thing by kind and id, as the maps below key it. */
export const thingKey = (kind: SeriesKind, key: string) => `${kind}\0${key}`;

export type {EventRow} from './event-rows.js';

/** What one flush writes, before series ids are known. */
export type Batch = {
	/** The things below that the file does not hold as they are now: new, renamed, deleted or back. */
	readonly things: Map<string, {readonly kind: SeriesKind; readonly key: string; readonly name: string}>;
	/** Samples as stored: state and the values' JSON text. */
	readonly samples: Array<{readonly thing: string; readonly state: string | undefined; readonly values: string}>;
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
A thing's sample is not kept here: what was written of it is the sample of its state in the store
then (the recorder keeps that state), so the two are compared instead (no text kept per thing).
*/
export type Written = {
	/** The account's sample (it has no state object of its own). */
	readonly samples: Map<string, WrittenSample>;
	readonly records: Map<string, string>;
	readonly jobStatus: Map<string, string>;
};

/** Updates to `Written`, applied once a batch is committed. */
export type PendingWrites = {
	readonly samples: Map<string, WrittenSample>;
	readonly records: Map<string, string>;
	readonly jobStatus: Map<string, string>;
};

export const emptyWritten = (): Written => ({samples: new Map(), records: new Map(), jobStatus: new Map()});

const emptyPending = (): PendingWrites => ({samples: new Map(), records: new Map(), jobStatus: new Map()});

/** What the file says of a thing already in it. */
export type KnownSeries = {readonly name: string; readonly deleted: boolean};

export const emptyBatch = (): Batch => ({things: new Map(), samples: [], records: [], deleted: [], events: [], meta: new Map()});

export const isEmptyBatch = (batch: Batch) => batch.samples.length + batch.records.length + batch.deleted.length + batch.events.length + batch.meta.size === 0;

type KindSpec<S extends {readonly record: object}> = {
	readonly kind: SeriesKind;
	readonly name: (state: S) => string;
	readonly sample: (state: S) => Sample | undefined;
	readonly recordPart: (state: S) => unknown;
	/** The keys `recordPart` leaves out: a record whose other keys are equal to the last one's has the same part (no JSON made). */
	readonly partOmits?: ReadonlySet<string>;
	/** A change worth a timeline event (a pod's status), from the previous state of the same thing. */
	readonly statusOf?: (state: S) => string | undefined;
};

type Options = {
	/** Write every live thing whole (the minute's keyframe), not only what changed. */
	readonly keyframe: boolean;
	/** What the file holds of a thing (undefined: never seen, so a new id after the first list is a creation worth an event). */
	readonly known: (thing: string) => KnownSeries | undefined;
	readonly batch: Batch;
	readonly written: Written;
	/** Updates to `written`, applied once the batch is committed. */
	readonly pending: PendingWrites;
};

function collectionChanges<S extends {readonly record: object}>(
	spec: KindSpec<S>,
	previous: Collection<S> | undefined,
	next: Collection<S>,
	options: Options,
): void {
	const {keyframe, known, batch, written, pending} = options;
	if (!keyframe && previous === next) {
		return;
	}

	// By the map's own keys: a lookup with a key the map holds is cheap, one with a string fresh from
	// the last poll's JSON is not (10,000 pods: half the time of a flush went to those lookups).
	let kept = 0;
	for (const id of Object.keys(next.byId)) {
		const state = next.byId[id];
		const before = previous?.byId[id];
		if (before) {
			kept++;
		}

		if (!state || (!keyframe && before === state)) {
			continue;
		}

		const thing = thingKey(spec.kind, id);
		const sample = spec.sample(state);
		if (before === state) {
			// The minute's keyframe, for a thing unchanged since the last write: written again as it was.
			if (sample) {
				batch.samples.push({thing, state: sample.state, values: JSON.stringify(sample.values)});
			}

			continue;
		}

		const name = spec.name(state);
		const entry = known(thing);
		const touch = () => {
			if (!entry || entry.deleted || entry.name !== name) {
				batch.things.set(thing, {kind: spec.kind, key: id, name});
			}
		};

		if (!before && previous && previous.order.length > 0 && !entry) {
			touch();
			batch.events.push({type: 'created', kind: spec.kind, subject: id, name, data: {}});
		}

		const samePart =
			before !== undefined &&
			spec.partOmits !== undefined &&
			sameExcept(before.record as Record<string, unknown>, state.record as Record<string, unknown>, spec.partOmits);
		if (!samePart) {
			const record = JSON.stringify(spec.recordPart(state));
			if (written.records.get(thing) !== record) {
				touch();
				batch.records.push({thing, record});
				pending.records.set(thing, record);
			}
		}

		if (sample && (keyframe || !before || !sameSample(spec.sample(before), sample))) {
			touch();
			batch.samples.push({thing, state: sample.state, values: JSON.stringify(sample.values)});
		}

		const status = spec.statusOf?.(state);
		const statusBefore = before ? spec.statusOf?.(before) : undefined;
		if (before && status !== statusBefore) {
			touch();
			batch.events.push({type: 'status', kind: spec.kind, subject: id, name, data: {from: statusBefore ?? null, to: status ?? null}});
		}
	}

	// Something left only when fewer of the previous things are still here.
	if (previous && previous !== next && kept < previous.order.length) {
		for (const id of Object.keys(previous.byId)) {
			const before = previous.byId[id];
			if (!next.byId[id] && before) {
				const thing = thingKey(spec.kind, id);
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
	sample: endpointStateSample,
	recordPart: state => endpointRecordPart(state.record),
	partOmits: new Set(['pods']),
};

const podSpec: KindSpec<PodtopState['pods']['byId'][string]> = {
	kind: 'pod',
	name: state => state.record.name || state.record.id,
	sample: podStateSample,
	recordPart: state => podRecordPart(state.record),
	partOmits: new Set(['runtime', 'desiredStatus', 'costPerHr', 'env']),
	statusOf: state => state.record.desiredStatus ?? undefined,
};

const gpuSpec: KindSpec<PodtopState['gpus']['byId'][string]> = {
	kind: 'gpu',
	name: state => state.record.displayName || state.record.id,
	sample: gpuStateSample,
	recordPart: state => gpuRecordPart(state.record),
};

/** The account as one series: the running pods' $/h and counts; its state lists the alerts firing (ids). */
export function accountSample(state: PodtopState): Sample {
	let runningCost = 0;
	let running = 0;
	for (const id of state.pods.order) {
		const record = state.pods.byId[id]?.record;
		if (record?.desiredStatus === 'RUNNING') {
			running++;
			runningCost += record.costPerHr ?? 0;
		}
	}

	return {
		state: state.alerts.length > 0 ? JSON.stringify(state.alerts.map(alert => alert.id)) : undefined,
		values: [Math.round(runningCost * 10_000) / 10_000, running, state.pods.order.length, state.endpoints.order.length, state.alerts.length],
	};
}

/** What an alert's events carry: enough to show it again as it was. */
export const alertData = (alert: FiringAlert) => ({...alert});

/**
What changed between the state last written and the state now, as one batch: samples of things
whose state object changed (all of them at a keyframe), records that changed, things gone, and
the timeline's events (created, deleted, status, alerts, tracked jobs whose status moved).
*/
export function collectChanges(
	previous: PodtopState | undefined,
	next: PodtopState,
	changedJobs: ReadonlySet<string>,
	options: Omit<Options, 'batch' | 'pending'>,
): {readonly batch: Batch; readonly pending: PendingWrites} {
	const batch = emptyBatch();
	const pending = emptyPending();
	const full = {...options, batch, pending};
	collectionChanges(endpointSpec, previous?.endpoints, next.endpoints, full);
	collectionChanges(podSpec, previous?.pods, next.pods, full);
	collectionChanges(gpuSpec, previous?.gpus, next.gpus, full);

	const accountChanged =
		options.keyframe || previous?.pods !== next.pods || previous.alerts !== next.alerts || previous.endpoints.order !== next.endpoints.order;
	if (accountChanged && (next.pods.updatedAt !== undefined || next.endpoints.updatedAt !== undefined)) {
		const thing = thingKey('account', 'account');
		const sample = accountSample(next);
		const values = JSON.stringify(sample.values);
		const last = options.written.samples.get(thing);
		if (options.keyframe || last?.state !== sample.state || last?.values !== values) {
			if (!options.known(thing)) {
				batch.things.set(thing, {kind: 'account', key: 'account', name: 'account'});
			}

			batch.samples.push({thing, state: sample.state, values});
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

	return {batch, pending};
}

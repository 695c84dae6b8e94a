import {deepEqual} from '../lib/deep-equal.js';
import {type PodtopState, type Collection} from '../store/state.js';
import type {FiringAlert} from '../store/types.js';
import {endpointRecordPart, endpointStateSample, gpuRecordPart, gpuStateSample, podRecordPart, podStateSample, type Sample} from './fields.js';
import {jobEvent, type EventRow} from './event-rows.js';
import type {SeriesKind} from './history-types.js';

/** A thing by kind and id, as the maps below key it. */
export const thingKey = (kind: SeriesKind, key: string) => `${kind}\0${key}`;

export type {EventRow} from './event-rows.js';

/** What one flush writes, before series ids are known. */
export type Batch = {
	/** Every thing a sample, record or deletion below names, with its name now. */
	readonly things: Map<string, {readonly kind: SeriesKind; readonly key: string; readonly name: string}>;
	/** Samples as stored: state and the values' JSON text. */
	readonly samples: Array<{readonly thing: string; readonly state: string | undefined; readonly values: string}>;
	readonly records: Array<{readonly thing: string; readonly record: string}>;
	readonly deleted: string[];
	readonly events: EventRow[];
	/** Marks kept with the batch, in the same transaction (how far the audit log was read). */
	readonly meta: Map<string, string>;
};

/** What has been written so far, so that only changes are written again. Updated after each commit. */
export type Written = {
	readonly samples: Map<string, string>;
	readonly records: Map<string, string>;
	readonly jobStatus: Map<string, string>;
};

export const emptyWritten = (): Written => ({samples: new Map(), records: new Map(), jobStatus: new Map()});

export const emptyBatch = (): Batch => ({things: new Map(), samples: [], records: [], deleted: [], events: [], meta: new Map()});

export const isEmptyBatch = (batch: Batch) => batch.samples.length + batch.records.length + batch.deleted.length + batch.events.length + batch.meta.size === 0;

/** A sample as compared with the one written: its state and its values' JSON. */
const sampleText = (state: string | undefined, values: string) => `${state ?? ''}\0${values}`;

type KindSpec<S> = {
	readonly kind: SeriesKind;
	readonly name: (state: S) => string;
	readonly sample: (state: S) => Sample | undefined;
	readonly recordPart: (state: S) => unknown;
	/** A change worth a timeline event (a pod's status), from the previous state of the same thing. */
	readonly statusOf?: (state: S) => string | undefined;
};

type Options = {
	/** Write every live thing whole (the minute's keyframe), not only what changed. */
	readonly keyframe: boolean;
	/** Things were seen before in this file (not the first list): a new id is a creation worth an event. */
	readonly known: (thing: string) => boolean;
	readonly batch: Batch;
	readonly written: Written;
	/** Updates to `written`, applied once the batch is committed. */
	readonly pending: Written;
};

function collectionChanges<S>(spec: KindSpec<S>, previous: Collection<S> | undefined, next: Collection<S>, options: Options): void {
	const {keyframe, known, batch, written, pending} = options;
	if (!keyframe && previous === next) {
		return;
	}

	for (const id of next.order) {
		const state = next.byId[id];
		const before = previous?.byId[id];
		if (!state || (!keyframe && before === state)) {
			continue;
		}

		const thing = thingKey(spec.kind, id);
		const name = spec.name(state);
		const touch = () => batch.things.set(thing, {kind: spec.kind, key: id, name});
		if (!before && previous && previous.order.length > 0 && !known(thing)) {
			touch();
			batch.events.push({type: 'created', kind: spec.kind, subject: id, name, data: {}});
		}

		// `before` is the state last written: a record part equal to its part is the text written then, not made again.
		if (!before || !written.records.has(thing) || !deepEqual(spec.recordPart(before), spec.recordPart(state))) {
			const record = JSON.stringify(spec.recordPart(state));
			if (written.records.get(thing) !== record) {
				touch();
				batch.records.push({thing, record});
				pending.records.set(thing, record);
			}
		}

		const sample = spec.sample(state);
		if (sample) {
			const values = JSON.stringify(sample.values);
			const text = sampleText(sample.state, values);
			if (keyframe || written.samples.get(thing) !== text) {
				touch();
				batch.samples.push({thing, state: sample.state, values});
				pending.samples.set(thing, text);
			}
		}

		const status = spec.statusOf?.(state);
		const statusBefore = before ? spec.statusOf?.(before) : undefined;
		if (before && status !== statusBefore) {
			touch();
			batch.events.push({type: 'status', kind: spec.kind, subject: id, name, data: {from: statusBefore ?? null, to: status ?? null}});
		}
	}

	if (previous && previous !== next) {
		for (const id of previous.order) {
			const before = previous.byId[id];
			if (!next.byId[id] && before) {
				const thing = thingKey(spec.kind, id);
				const name = spec.name(before);
				batch.things.set(thing, {kind: spec.kind, key: id, name});
				batch.deleted.push(thing);
				batch.events.push({type: 'deleted', kind: spec.kind, subject: id, name, data: {}});
				pending.samples.set(thing, '');
			}
		}
	}
}

const endpointSpec: KindSpec<PodtopState['endpoints']['byId'][string]> = {
	kind: 'endpoint',
	name: state => state.record.name || state.record.id,
	sample: endpointStateSample,
	recordPart: state => endpointRecordPart(state.record),
};

const podSpec: KindSpec<PodtopState['pods']['byId'][string]> = {
	kind: 'pod',
	name: state => state.record.name || state.record.id,
	sample: podStateSample,
	recordPart: state => podRecordPart(state.record),
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
): {readonly batch: Batch; readonly pending: Written} {
	const batch = emptyBatch();
	const pending = emptyWritten();
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
		const text = sampleText(sample.state, values);
		if (options.keyframe || options.written.samples.get(thing) !== text) {
			batch.things.set(thing, {kind: 'account', key: 'account', name: 'account'});
			batch.samples.push({thing, state: sample.state, values});
			pending.samples.set(thing, text);
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

import {stockOf} from '../store/gpu-stock.js';
import type {PodtopState} from '../store/state.js';
import {accountSample, alertData, countRunning} from './account-sample.js';
import {emptyBatch, emptyPending, type Batch, type PendingWrites} from './batch.js';
import {collectionChanges, type KindSpec, type Options} from './collection-changes.js';
import {endpointRecordPart, gpuRecordPart, podRecordPart, podStartedAt} from './fields.js';
import {jobEvent} from './event-rows.js';
import {endpointValues, gpuValues, podValues} from './sample-values.js';
import {thingKey} from './tracked.js';
import {createSampleRows} from './sample-rows.js';

export type {EventRow} from './event-rows.js';
export type {KnownSeries} from './tracked.js';
export {thingKey} from './tracked.js';

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
	startedAt: (state, polledAt) => podStartedAt(state.record, polledAt),
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
	// Its figures count pods and endpoints: written once both lists are in (an agent's picture before its first poll of pods would say none run).
	if (accountChanged && next.pods.updatedAt !== undefined && next.endpoints.updatedAt !== undefined) {
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

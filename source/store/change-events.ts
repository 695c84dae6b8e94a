import type {ChangeLine} from '../api/agent-protocol.js';
import {podCost} from './pod-figures.js';
import type {PodtopState} from './state.js';
import type {FiringAlert, SourceName} from './types.js';

/** A change as `podtop watch --jsonl` prints it and an agent sends it to its clients. */
export type ChangeEvent = ChangeLine;

/**
What changed between two store states, as events for `podtop watch --jsonl`. Compares by identity:
the store only replaces what changed, so this is cheap and exact.
*/
export function changeEvents(previous: PodtopState, next: PodtopState, at: string): ChangeEvent[] {
	const events: ChangeEvent[] = [];
	if (previous.via !== next.via) {
		events.push({type: 'source', at, via: next.via});
	}

	if (previous.endpoints.order !== next.endpoints.order) {
		events.push({type: 'endpoints', at, ids: next.endpoints.order});
	}

	for (const id of next.endpoints.order) {
		const before = previous.endpoints.byId[id];
		const after = next.endpoints.byId[id]!;
		if (before?.record !== after.record) {
			events.push({type: 'endpoint', at, endpoint: after.record});
		}

		if (after.health && before?.health !== after.health) {
			events.push({type: 'health', at, endpointId: id, health: after.health, healthAt: after.healthAt, figures: after.figures});
		}

		if (before?.healthError !== after.healthError && after.healthError !== undefined) {
			events.push({type: 'health.error', at, endpointId: id, error: after.healthError});
		}
	}

	if (previous.serverlessDiscount !== next.serverlessDiscount) {
		events.push({type: 'discount', at, discount: next.serverlessDiscount ?? null});
	}

	for (const id of next.pods.order) {
		if (previous.pods.byId[id]?.record !== next.pods.byId[id]!.record) {
			const {record} = next.pods.byId[id]!;
			const {now, estimated} = podCost(record);
			// Beside the record (whose costPerHr is the running price, a stopped pod's too): what it costs now.
			events.push({type: 'pod', at, pod: record, costNowPerHr: now ?? null, costNowEstimated: estimated});
		}
	}

	for (const id of previous.pods.order) {
		if (!next.pods.byId[id]) {
			events.push({type: 'pod.removed', at, id});
		}
	}

	for (const id of next.gpus.order) {
		if (previous.gpus.byId[id]?.record !== next.gpus.byId[id]!.record) {
			events.push({type: 'gpu', at, gpuType: next.gpus.byId[id]!.record});
		}
	}

	for (const source of ['jobApi', 'graphql'] as const satisfies readonly SourceName[]) {
		const before = previous.connection[source];
		const after = next.connection[source];
		if (before.staleSince !== after.staleSince || (after.staleSince !== undefined && before.lastError !== after.lastError)) {
			events.push({
				type: 'connection',
				at,
				source,
				stale: after.staleSince !== undefined,
				...(after.staleSince === undefined ? {} : {since: new Date(after.staleSince).toISOString(), error: after.lastError}),
			});
		}
	}

	if (previous.jobs.revision !== next.jobs.revision) {
		for (const key of next.jobs.changed) {
			const job = next.jobs.byKey.get(key);
			if (job) {
				const {endpointId, id, status, delayTime, executionTime, error, chunkCount} = job;
				events.push({type: 'job', at, endpointId, id, status, delayTime, executionTime, error, chunkCount});
			}
		}
	}

	if (previous.probes.byEndpoint !== next.probes.byEndpoint) {
		for (const [endpointId, probes] of Object.entries(next.probes.byEndpoint)) {
			const before = previous.probes.byEndpoint[endpointId];
			if (probes === before) {
				continue;
			}

			const known = new Set(before);
			for (const probe of probes) {
				if (!known.has(probe)) {
					events.push({type: 'probe', at, endpointId, probe: {...probe, sentAt: new Date(probe.at).toISOString()}});
				}
			}
		}
	}

	if (previous.alerts !== next.alerts) {
		const before = new Set(previous.alerts.map(alert => alert.id));
		const after = new Set(next.alerts.map(alert => alert.id));
		for (const alert of next.alerts) {
			if (!before.has(alert.id)) {
				events.push({type: 'alert', at, state: 'firing', ...alertFields(alert)});
			}
		}

		for (const alert of previous.alerts) {
			if (!after.has(alert.id)) {
				events.push({type: 'alert', at, state: 'resolved', ...alertFields(alert)});
			}
		}
	}

	return events;
}

const alertFields = ({rule, kind, subject, subjectName, message, since, firedAt}: FiringAlert) => ({
	rule,
	kind,
	subject,
	subjectName,
	message,
	since: new Date(since).toISOString(),
	firedAt: new Date(firedAt).toISOString(),
});

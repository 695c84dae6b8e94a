import type {WorkerRecord} from '../model/worker.js';
import type {EndpointWorkers} from '../store/worker-track.js';
import type {PodtopState} from '../store/state.js';
import type {EventRow} from './event-rows.js';

/** A worker as a `workers` event keeps it: what the details show of it at a past moment. */
export type RecordedWorker = Omit<WorkerRecord, 'isStale'> & {
	readonly isStale?: true;
	/** When its status last changed (or it was first seen), epoch ms. */
	readonly statusSince: number;
	readonly restarts: number;
};

/** One worker's change in a `workers` event: `from` undefined, it appeared; `to` undefined, it went. */
export type WorkerChange = {readonly id: string; readonly from?: string; readonly to?: string; readonly restarted?: true};

/** Workers kept in one event at most (the most troubled are not chosen: the list's order; the rest counted in `more`). */
export const recordedWorkersMax = 100;

export const workersRef = (endpointId: string) => `workers:${endpointId}`;

/** A list as last written: its key (empty: read back from the file, so any list now is written again) and each worker's status and restarts. */
export type Written = {readonly key: string; readonly workers: ReadonlyMap<string, {readonly status: string; readonly restarts: number}>};

/** What makes a list a different one: ids, statuses, releases, placement and restarts (not the uptime, which moves on alone). */
const keyOf = (workers: EndpointWorkers): string =>
	JSON.stringify([
		workers.list.endpointVersion,
		workers.list.workers.map(worker => [
			worker.id,
			worker.status,
			worker.isStale,
			worker.version,
			worker.gpuTypeId,
			worker.gpuCount,
			worker.dataCenterId,
			workers.tracks[worker.id]?.restarts ?? 0,
		]),
	]);

function recorded(worker: WorkerRecord, workers: EndpointWorkers): RecordedWorker {
	const {isStale, ...rest} = worker;
	const track = workers.tracks[worker.id];
	return {...rest, ...(isStale ? {isStale: true} : {}), statusSince: track?.statusSince ?? workers.list.readAt, restarts: track?.restarts ?? 0};
}

function changesOf(before: Written | undefined, workers: EndpointWorkers): WorkerChange[] {
	const changes: WorkerChange[] = [];
	const listed = new Set<string>();
	for (const worker of workers.list.workers) {
		listed.add(worker.id);
		const was = before?.workers.get(worker.id);
		const restarts = workers.tracks[worker.id]?.restarts ?? 0;
		if (!was) {
			changes.push({id: worker.id, to: worker.status});
		} else if (was.status !== worker.status || was.restarts < restarts) {
			changes.push({id: worker.id, from: was.status, to: worker.status, ...(was.restarts < restarts ? {restarted: true} : {})});
		}
	}

	for (const [id, was] of before?.workers ?? []) {
		if (!listed.has(id)) {
			changes.push({id, from: was.status});
		}
	}

	return changes;
}

/**
The endpoints' worker lists as timeline events, for the time cursor (which workers an endpoint had at a
moment, and their states) and a worker's own past: a `workers` event when an endpoint's list changed
(a worker came or went, a status, a release, a restart), never for uptimes alone; one with no list when
the endpoint's workers are no longer read (its details closed, its queue empty). `fromFile`: the lists
the file held open when this recorder started (`recordedWorkerLists`).
*/
export function createWorkerLists(fromFile: ReadonlyMap<string, Written> = new Map()) {
	const written = new Map<string, Written>(fromFile);
	return (previous: PodtopState | undefined, next: PodtopState): {readonly events: EventRow[]; readonly commit: () => void} => {
		const events: EventRow[] = [];
		const pending = new Map<string, Written | undefined>();
		const {byEndpoint} = next.workers;
		if (previous?.workers.byEndpoint === byEndpoint) {
			return {events, commit() {}};
		}

		const nameOf = (endpointId: string) => next.endpoints.byId[endpointId]?.record.name || endpointId;
		for (const [endpointId, workers] of Object.entries(byEndpoint)) {
			const before = written.get(endpointId);
			if (before && previous?.workers.byEndpoint[endpointId] === workers) {
				continue;
			}

			const key = keyOf(workers);
			if (before?.key === key) {
				continue;
			}

			const {endpointVersion, readAt} = workers.list;
			const listed = workers.list.workers;
			pending.set(endpointId, {
				key,
				workers: new Map(listed.map(worker => [worker.id, {status: worker.status, restarts: workers.tracks[worker.id]?.restarts ?? 0}])),
			});
			events.push({
				type: 'workers',
				kind: 'endpoint',
				subject: endpointId,
				name: nameOf(endpointId),
				ref: workersRef(endpointId),
				data: {
					...(endpointVersion === undefined ? {} : {endpointVersion}),
					readAt,
					workers: listed.slice(0, recordedWorkersMax).map(worker => recorded(worker, workers)),
					...(listed.length > recordedWorkersMax ? {more: listed.length - recordedWorkersMax} : {}),
					changes: changesOf(before, workers),
				},
			});
		}

		for (const endpointId of written.keys()) {
			if (!byEndpoint[endpointId]) {
				pending.set(endpointId, undefined);
				events.push({type: 'workers', kind: 'endpoint', subject: endpointId, name: nameOf(endpointId), ref: workersRef(endpointId), data: {workers: null}});
			}
		}

		return {
			events,
			commit() {
				for (const [endpointId, list] of pending) {
					if (list) {
						written.set(endpointId, list);
					} else {
						written.delete(endpointId);
					}
				}
			},
		};
	};
}

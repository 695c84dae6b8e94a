import type {ChangeLine} from '../api/agent-protocol.js';
import type {WorkerList, WorkerRecord} from '../model/worker.js';
import type {PodtopState} from './state.js';
import {goneKept, statusChangesKept, type EndpointWorkers, type GoneWorker, type WorkerStatusChange, type WorkerTrack} from './worker-track.js';

/** Workers of one endpoint an agent sends at most (the service's own limit per endpoint is far below); the rest are not sent. */
export const maxFedWorkers = 500;
/** Ids, statuses, GPU types, data centers and images are cut to this many characters off the wire. */
const maxTextLength = 300;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value.slice(0, maxTextLength) : undefined);
const count = (value: unknown) => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined);
const time = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined);
const ifSet = <T>(name: string, value: T | undefined) => (value === undefined ? {} : {[name]: value});

/** An endpoint's workers as an agent sends them: at most `maxFedWorkers` listed (with their tracks), the gone ones the store keeps. */
export function fedWorkers(workers: EndpointWorkers): EndpointWorkers {
	if (workers.list.workers.length <= maxFedWorkers) {
		return workers;
	}

	const listed = workers.list.workers.slice(0, maxFedWorkers);
	return {
		list: {...workers.list, workers: listed},
		tracks: Object.fromEntries(listed.flatMap(worker => (workers.tracks[worker.id] ? [[worker.id, workers.tracks[worker.id]!]] : []))),
		gone: workers.gone,
	};
}

/**
The `workers` events an agent sends its clients (not `podtop watch`'s: a list is not a change an operator reads): an endpoint's
workers when the agent's read of them changed (never for uptimes alone: the store keeps the same list then), `workers: null` when it
let them go.
*/
export function workerEvents(previous: PodtopState, next: PodtopState, at: string): ChangeLine[] {
	const before = previous.workers.byEndpoint;
	const after = next.workers.byEndpoint;
	if (before === after) {
		return [];
	}

	const events: ChangeLine[] = [];
	for (const [endpointId, workers] of Object.entries(after)) {
		if (before[endpointId] !== workers) {
			events.push({type: 'workers', at, endpointId, workers: fedWorkers(workers)});
		}
	}

	for (const endpointId of Object.keys(before)) {
		if (!(endpointId in after)) {
			events.push({type: 'workers', at, endpointId, workers: null});
		}
	}

	return events;
}

/** A worker off the wire: its known fields only, of their types. */
function workerOf(value: unknown): WorkerRecord | undefined {
	const id = isRecord(value) ? text(value.id) : undefined;
	const status = isRecord(value) ? text(value.status) : undefined;
	if (!isRecord(value) || id === undefined || status === undefined) {
		return undefined;
	}

	return {
		id,
		status,
		isStale: value.isStale === true,
		...ifSet('version', count(value.version)),
		...ifSet('gpuTypeId', text(value.gpuTypeId)),
		...ifSet('gpuCount', count(value.gpuCount)),
		...ifSet('dataCenterId', text(value.dataCenterId)),
		...ifSet('image', text(value.image)),
		...ifSet('uptimeSeconds', time(value.uptimeSeconds)),
		...ifSet('startedAt', time(value.startedAt)),
	};
}

function statusChangeOf(value: unknown): WorkerStatusChange | undefined {
	const at = isRecord(value) ? time(value.at) : undefined;
	const status = isRecord(value) ? text(value.status) : undefined;
	return at === undefined || status === undefined ? undefined : {at, status, ...(isRecord(value) && value.restarted === true ? {restarted: true} : {})};
}

function trackOf(value: unknown): WorkerTrack | undefined {
	if (!isRecord(value)) {
		return undefined;
	}

	const firstSeenAt = time(value.firstSeenAt);
	const statusSince = time(value.statusSince);
	const restarts = count(value.restarts);
	if (firstSeenAt === undefined || statusSince === undefined || restarts === undefined || !Array.isArray(value.statuses)) {
		return undefined;
	}

	return {
		firstSeenAt,
		statusSince,
		restarts,
		...ifSet('lastRestartAt', time(value.lastRestartAt)),
		statuses: value.statuses
			.slice(-statusChangesKept)
			.map(change => statusChangeOf(change))
			.filter(change => change !== undefined),
	};
}

function goneOf(value: unknown): GoneWorker | undefined {
	if (!isRecord(value)) {
		return undefined;
	}

	const id = text(value.id);
	const at = time(value.at);
	const status = text(value.status);
	if (id === undefined || at === undefined || status === undefined) {
		return undefined;
	}

	return {
		id,
		at,
		status,
		...ifSet('uptimeSeconds', time(value.uptimeSeconds)),
		queueWaited: value.queueWaited === true,
		...ifSet('last', workerOf(value.last)),
		...ifSet('track', trackOf(value.track)),
	};
}

/**
An endpoint's workers as an agent sent them (a `workers` event, or its snapshot), checked field by field and bounded as the agent
bounds them (`maxFedWorkers` listed, `goneKept` gone, `statusChangesKept` changes a worker); undefined when it is not one.
*/
export function readFedWorkers(endpointId: string, value: unknown): EndpointWorkers | undefined {
	if (!isRecord(value) || !isRecord(value.list) || !isRecord(value.tracks) || !Array.isArray(value.gone) || !Array.isArray(value.list.workers)) {
		return undefined;
	}

	const readAt = time(value.list.readAt);
	if (readAt === undefined) {
		return undefined;
	}

	const workers = value.list.workers
		.slice(0, maxFedWorkers)
		.map(worker => workerOf(worker))
		.filter(worker => worker !== undefined);
	const tracks: Record<string, WorkerTrack> = {};
	for (const worker of workers) {
		const track = trackOf(Object.hasOwn(value.tracks, worker.id) ? value.tracks[worker.id] : undefined);
		if (track) {
			tracks[worker.id] = track;
		}
	}

	const list: WorkerList = {endpointId, ...ifSet('endpointVersion', count(value.list.endpointVersion)), workers, readAt};
	return {
		list,
		tracks,
		gone: value.gone
			.slice(-goneKept)
			.map(gone => goneOf(gone))
			.filter(gone => gone !== undefined),
	};
}

import type {EndpointWorkers, WorkerTrack} from '../store/worker-track.js';
import type {SqliteDatabase} from './history-file.js';
import {type RecordedWorker, workersRef} from './worker-lists.js';

const prepared = new WeakMap<SqliteDatabase, ReturnType<typeof prepare>>();

function prepare(db: SqliteDatabase) {
	// The newest list of one endpoint at the moment: a seek on (ref, at) each.
	return db.prepare(`SELECT at, data FROM events WHERE ref = ? AND at <= ? AND type = 'workers' ORDER BY at DESC LIMIT 1`).raw();
}

const isWorker = (value: unknown): value is RecordedWorker =>
	typeof value === 'object' && value !== null && typeof (value as RecordedWorker).id === 'string' && typeof (value as RecordedWorker).status === 'string';

/** A recorded list as the store holds one: the workers as read then, each with its status' start and restarts (uptimes as read). */
function endpointWorkersOf(endpointId: string, at: number, data: Record<string, unknown>): EndpointWorkers | undefined {
	if (!Array.isArray(data.workers)) {
		return undefined;
	}

	const readAt = typeof data.readAt === 'number' ? data.readAt : at;
	const tracks: Record<string, WorkerTrack> = {};
	const workers = data.workers
		.filter(each => isWorker(each))
		.map(({statusSince, restarts, isStale, ...worker}) => {
			tracks[worker.id] = {firstSeenAt: statusSince, statusSince, restarts, statuses: [{at: statusSince, status: worker.status}]};
			return {...worker, isStale: isStale === true};
		});
	const endpointVersion = typeof data.endpointVersion === 'number' ? data.endpointVersion : undefined;
	return {list: {endpointId, endpointVersion, workers, readAt}, tracks, gone: []};
}

/**
The endpoints' workers at a moment, from the `workers` events (the newest of each endpoint before it): an
endpoint whose workers were not being read then (none written, or one that says they stopped) has none.
*/
export function workersAt(db: SqliteDatabase, at: number, endpointIds: readonly string[]): Record<string, EndpointWorkers> {
	let statement = prepared.get(db);
	if (!statement) {
		statement = prepare(db);
		prepared.set(db, statement);
	}

	const byEndpoint: Record<string, EndpointWorkers> = {};
	for (const endpointId of endpointIds) {
		const row = statement.get(workersRef(endpointId), at) as [number, string] | undefined;
		if (!row) {
			continue;
		}

		const workers = endpointWorkersOf(endpointId, row[0], JSON.parse(row[1]) as Record<string, unknown>);
		if (workers) {
			byEndpoint[endpointId] = workers;
		}
	}

	return byEndpoint;
}

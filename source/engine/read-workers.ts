import {ApiError} from '../api/errors.js';
import type {Health} from '../api/job-types.js';
import {NotFoundError} from '../lib/not-found-error.js';
import type {Rollout, WorkerList} from '../model/worker.js';
import type {ScheduledApi} from '../poll/scheduled-api.js';
import {workersUnpublished} from '../poll/workers-loop.js';
import {diagnose, type Diagnosis} from '../store/diagnosis.js';
import {trackWorkers} from '../store/worker-track.js';

/** One endpoint's workers read now (`podtop workers`): the list, the rollout, its health and the diagnosis of one look. */
export type WorkersReport = {
	readonly endpoint: {readonly id: string; readonly name: string};
	readonly workers: WorkerList;
	readonly rollout: Rollout | undefined;
	readonly health: Health | undefined;
	/** One look: restarts and how long jobs went unserved need reads over time (the dashboard, `watch`), so they are not in it. */
	readonly diagnosis: Diagnosis;
};

/** Reads an endpoint's workers, releases, health, record and the GPU types at a user's priority; a gone endpoint is a NotFoundError (exit 4). */
export async function readWorkers(api: ScheduledApi, endpointId: string, now: () => number): Promise<WorkersReport> {
	if (!api.workersPublished()) {
		throw new ApiError('invalid', workersUnpublished);
	}

	const [workers, rollout, health, records, gpus] = await Promise.all([
		api.workers(endpointId, 'action'),
		api.releases(endpointId, 'action'),
		api.health(endpointId, 'action').catch(() => undefined),
		api.endpoints('action'),
		api.gpuTypes('action').catch(() => []),
	]);
	const record = records.find(each => each.id === endpointId);
	if (!workers || !record) {
		throw new NotFoundError(`no endpoint "${endpointId}" in this account`);
	}

	const at = now();
	const queue = health?.jobs.inQueue ?? 0;
	const sample = health && {at, ...health.jobs, running: health.workers.running};
	const diagnosis = diagnose({
		endpoint: record,
		health,
		history: sample ? [sample] : [],
		workers: trackWorkers(undefined, workers, queue > 0),
		rollout,
		gpus,
		now: at,
	});
	return {endpoint: {id: record.id, name: record.name}, workers, rollout, health, diagnosis};
}

import type {Release, Rollout, WorkerList, WorkerRecord} from '../../model/worker.js';
import type {components} from './v2-schema.js';

type V2Worker = components['schemas']['Worker'];
type V2Workers = components['schemas']['ListEndpointWorkersResponse'];
type V2Releases = components['schemas']['ListEndpointReleasesResponse'];

/** A release's old or new value is raw JSON: kept as text, cut at this many characters (an env block can be long). */
const valueChars = 200;

const epochMs = (text: string | null | undefined): number | undefined => {
	const ms = text ? Date.parse(text) : Number.NaN;
	return Number.isFinite(ms) ? ms : undefined;
};

const orUndefined = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

function valueText(value: unknown): string | undefined {
	if (value === null || value === undefined) {
		return undefined;
	}

	const text = typeof value === 'string' ? value : JSON.stringify(value);
	return text.length > valueChars ? `${text.slice(0, valueChars - 1)}…` : text;
}

export function workerRecord(worker: V2Worker): WorkerRecord {
	return {
		id: worker.id,
		status: worker.status,
		isStale: worker.isStale,
		version: orUndefined(worker.version),
		gpuTypeId: orUndefined(worker.gpuTypeId),
		gpuCount: worker.gpuCount,
		dataCenterId: orUndefined(worker.dataCenterId),
		image: orUndefined(worker.image),
		uptimeSeconds: orUndefined(worker.uptimeSeconds),
		startedAt: epochMs(worker.startedAt),
	};
}

export function workerList(endpointId: string, answer: V2Workers, readAt: number): WorkerList {
	return {endpointId, endpointVersion: orUndefined(answer.endpointVersion), workers: answer.workers.map(worker => workerRecord(worker)), readAt};
}

export function rollout(endpointId: string, answer: V2Releases): Rollout {
	const releases: Release[] = answer.releases.map(release => ({
		version: release.version ?? 0,
		source: release.source,
		workerCount: release.workerCount,
		createdAt: epochMs(release.createdAt),
		diff: release.diff.map(change => ({field: change.field, old: valueText(change.old), new: valueText(change.new)})),
	}));
	return {endpointId, endpointVersion: orUndefined(answer.endpointVersion), ...answer.rollout, releases};
}

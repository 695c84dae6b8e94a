import {formatClock} from '../format/clock.js';
import {formatDuration} from '../format/duration.js';
import {sanitizeLine} from '../format/sanitize.js';
import type {GpuTypeRecord} from '../model/gpu-type.js';
import type {WorkerRecord} from '../model/worker.js';
import type {HistoryEvent} from '../history/history-types.js';
import type {EndpointWorkers, GoneWorker, WorkerTrack} from '../store/worker-track.js';
import type {Column, Row} from './row.js';
import {goneLifetime, goneWorkers, uptimeNow} from './worker-rows.js';

/** One worker as podtop knows it: listed now, or gone (its last listing kept). */
export type FoundWorker = {
	readonly record: WorkerRecord;
	readonly track: WorkerTrack | undefined;
	/** When the record was read. */
	readonly readAt: number;
	readonly gone?: GoneWorker;
	readonly endpointVersion?: number;
};

/** The worker in an endpoint's workers: listed now, else the last time it went (undefined: podtop has not seen it, or forgot it). */
export function findWorker(workers: EndpointWorkers | undefined, workerId: string): FoundWorker | undefined {
	if (!workers) {
		return undefined;
	}

	const listed = workers.list.workers.find(worker => worker.id === workerId);
	if (listed) {
		return {record: listed, track: workers.tracks[workerId], readAt: workers.list.readAt, endpointVersion: workers.list.endpointVersion};
	}

	const gone = goneWorkers(workers).find(each => each.id === workerId);
	return gone
		? {record: gone.last ?? {id: gone.id, status: gone.status, isStale: false, uptimeSeconds: gone.uptimeSeconds}, track: gone.track, readAt: gone.at, gone}
		: undefined;
}

/** The worker's record in a few lines: status, release, GPU × count, data center, uptime, started, restarts; how long it lived and when it went, when gone. Sanitised. */
export function workerFacts(found: FoundWorker, gpus: readonly GpuTypeRecord[], now: number): string[] {
	const {record: worker, track, gone} = found;
	const gpuName = gpus.find(type => type.id === worker.gpuTypeId)?.displayName ?? worker.gpuTypeId;
	const version = worker.version === undefined ? 'release –' : `release v${worker.version}${worker.isStale ? ' (stale: older than the endpoint’s)' : ''}`;
	const since = track ? ` since ${formatClock(track.statusSince, now)}` : '';
	const status = gone ? `gone: last listed ${worker.status}` : `${worker.status}${since}`;
	const place = [
		gpuName ? `${worker.gpuCount ?? 1}× ${gpuName}` : 'GPU –',
		`data center ${worker.dataCenterId ?? '–'}`,
		...(worker.image ? [`image ${worker.image}`] : []),
	];
	const uptime = gone
		? `lived ${formatDuration(goneLifetime(gone))} · went between two reads, seen gone ${formatClock(gone.at, now)}${gone.queueWaited ? ' as jobs waited' : ''}`
		: `uptime ${formatDuration(uptimeNow(worker, found.readAt, now))}`;
	const started = `started ${worker.startedAt === undefined ? '–' : formatClock(worker.startedAt, now)}`;
	const seen = track ? `first seen ${formatClock(track.firstSeenAt, now)} · restarts seen ${track.restarts}` : 'not seen by this podtop before';
	return [`${status} · ${version}`, place.join(' · '), `${uptime} · ${started} · ${seen}`].map(line => sanitizeLine(line));
}

/** One status change of a worker: `status` undefined, it went. */
export type StatusEntry = {
	readonly at: number;
	readonly status: string | undefined;
	readonly restarted?: boolean;
	readonly first?: boolean;
	/** Seen by this podtop (the workers slice), or read back from the history file. */
	readonly source: 'seen' | 'recorded';
};

/** A worker's changes as the recorded `workers` events of its endpoint hold them, oldest first. */
export function recordedStatusChanges(events: readonly HistoryEvent[], endpointId: string, workerId: string): StatusEntry[] {
	const entries: StatusEntry[] = [];
	for (const event of events) {
		if (event.type !== 'workers' || event.subject !== endpointId || !Array.isArray(event.data.changes)) {
			continue;
		}

		for (const change of event.data.changes as Array<Record<string, unknown>>) {
			if (change.id === workerId) {
				entries.push({
					at: event.at,
					status: typeof change.to === 'string' ? change.to : undefined,
					...(change.restarted === true ? {restarted: true} : {}),
					...(change.from === undefined ? {first: true} : {}),
					source: 'recorded',
				});
			}
		}
	}

	return entries.sort((a, b) => a.at - b.at);
}

/**
The worker's status changes, oldest first: what the history file recorded before this podtop first saw it,
then what this podtop saw (the slice's own, bounded), then its going.
*/
export function statusChanges(found: FoundWorker | undefined, recorded: readonly StatusEntry[]): StatusEntry[] {
	const seen: StatusEntry[] = (found?.track?.statuses ?? []).map((change, index) => ({
		at: change.at,
		status: change.status,
		...(change.restarted ? {restarted: true} : {}),
		...(index === 0 ? {first: true} : {}),
		source: 'seen',
	}));
	const from = seen[0]?.at ?? Number.POSITIVE_INFINITY;
	const went: StatusEntry[] = found?.gone ? [{at: found.gone.at, status: undefined, source: 'seen'}] : [];
	return [...recorded.filter(entry => entry.at < from), ...seen, ...went];
}

export const statusChangeColumns = [
	{title: 'TIME', width: 15},
	{title: 'STATUS', width: 12},
	{title: 'CHANGE', width: 24, flex: true},
	{title: 'FROM', width: 8, legend: 'seen: by this podtop; recorded: read back from the history file'},
] as const satisfies readonly Column[];

/** The status changes as rows, the newest first. */
export function statusChangeRows(entries: readonly StatusEntry[], now: number): Row[] {
	return entries
		.map((entry, index): Row => {
			const change =
				entry.status === undefined ? 'no longer listed' : entry.first ? 'listed' : entry.restarted ? 'restarted (its uptime reset)' : 'status changed';
			return {
				key: `${entry.at}:${index}`,
				cells: [formatClock(entry.at, now), sanitizeLine(entry.status ?? 'gone'), change, entry.source],
				tone: entry.status === 'UNHEALTHY' || entry.restarted ? 'bad' : entry.status === undefined ? 'muted' : undefined,
			};
		})
		.toReversed();
}

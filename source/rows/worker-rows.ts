import {formatClock} from '../format/clock.js';
import {formatDuration} from '../format/duration.js';
import {sanitizeLine} from '../format/sanitize.js';
import type {GpuTypeRecord} from '../model/gpu-type.js';
import type {WorkerRecord} from '../model/worker.js';
import type {EndpointWorkers, GoneWorker} from '../store/worker-track.js';
import type {Column, Row, Tone} from './row.js';

export const workerColumns = [
	{title: 'WORKER', width: 14, flex: true},
	{title: 'STATUS', width: 12, legend: "the service's word: RUNNING a job, IDLE, INITIALIZING, THROTTLED waiting for a GPU, UNHEALTHY"},
	{title: 'RST', width: 3, align: 'right', legend: 'restarts seen: its uptime reset between two reads'},
	{title: 'VER', width: 8, legend: 'its release; stale: older than the endpoint’s'},
	{title: 'GPU', width: 16},
	{title: 'DC', width: 9, legend: 'data center'},
	{title: 'UPTIME', width: 7, align: 'right'},
	{title: 'STARTED', width: 8},
] as const satisfies readonly Column[];

/** How troubled a worker looks, lowest first: unhealthy, restarting, throttled, initializing, stale, the rest. */
function trouble(worker: WorkerRecord, restarts: number): number {
	if (worker.status === 'UNHEALTHY') {
		return 0;
	}

	if (restarts > 0) {
		return 1;
	}

	const byStatus: Record<string, number> = {THROTTLED: 2, INITIALIZING: 3};
	return byStatus[worker.status] ?? (worker.isStale ? 4 : worker.status === 'RUNNING' ? 5 : 6);
}

const tones: ReadonlyArray<Tone | undefined> = ['bad', 'bad', 'warn', 'warn', 'muted', undefined, undefined];

/** The uptime of a worker now: the one read plus the time since the read (a read that changed nothing else writes nothing). */
export const uptimeNow = (worker: WorkerRecord, readAt: number, now: number) =>
	worker.uptimeSeconds === undefined ? undefined : worker.uptimeSeconds + Math.max(0, (now - readAt) / 1000);

/** An endpoint's workers as rows, the most troubled first (the longest initializing first among those). Every service text is sanitised. */
export function workerRows(workers: EndpointWorkers, gpus: readonly GpuTypeRecord[], now: number): Row[] {
	const names = new Map(gpus.map(type => [type.id, type.displayName ?? type.id]));
	const {list, tracks} = workers;
	return list.workers
		.map(worker => {
			const restarts = tracks[worker.id]?.restarts ?? 0;
			return {worker, restarts, rank: trouble(worker, restarts), uptime: uptimeNow(worker, list.readAt, now)};
		})
		.sort((a, b) => a.rank - b.rank || (b.uptime ?? 0) - (a.uptime ?? 0) || a.worker.id.localeCompare(b.worker.id))
		.map(({worker, restarts, rank, uptime}) => {
			const version = worker.version === undefined ? '–' : `v${worker.version}`;
			const gpu = worker.gpuTypeId ? `${worker.gpuCount ?? 1}× ${names.get(worker.gpuTypeId) ?? worker.gpuTypeId}` : '–';
			return {
				key: worker.id,
				cells: [
					sanitizeLine(worker.id),
					sanitizeLine(worker.status),
					restarts > 0 ? String(restarts) : '',
					worker.isStale ? `stale ${version}` : version,
					sanitizeLine(gpu),
					sanitizeLine(worker.dataCenterId ?? '–'),
					formatDuration(uptime),
					worker.startedAt === undefined ? '–' : formatClock(worker.startedAt, now),
				],
				tone: tones[rank],
			};
		});
}

/** The gone workers' table: each one's last status, how long it lived, when it went, and whether jobs waited then. */
export const goneWorkerColumns = [
	{title: 'GONE WORKER', width: 14, flex: true},
	{title: 'LAST STATUS', width: 12, legend: 'the status it was last listed with'},
	{title: 'RST', width: 3, align: 'right'},
	{title: 'LIVED', width: 7, align: 'right', legend: 'its uptime when last listed (or how long podtop saw it)'},
	{title: 'WENT', width: 15, legend: 'the read that no longer listed it'},
	{title: 'QUEUE', width: 6, legend: 'waited: jobs were waiting as it went (no scale-down, then)'},
] as const satisfies readonly Column[];

/** The workers an endpoint had that the service no longer lists, newest first, each once (its last going), none listed again since. */
export function goneWorkers(workers: EndpointWorkers): GoneWorker[] {
	const listed = new Set(workers.list.workers.map(worker => worker.id));
	const seen = new Set<string>();
	return workers.gone.toReversed().filter(gone => {
		if (listed.has(gone.id) || seen.has(gone.id)) {
			return false;
		}

		seen.add(gone.id);
		return true;
	});
}

/** How long a gone worker lived: its uptime when last listed, else how long podtop saw it listed. */
export function goneLifetime(gone: GoneWorker): number | undefined {
	return gone.uptimeSeconds ?? (gone.track ? Math.max(0, (gone.at - gone.track.firstSeenAt) / 1000) : undefined);
}

/** An endpoint's gone workers as rows (see `goneWorkers`), muted; the unhealthy or young ones that went as jobs waited in the warning tone. */
export function goneWorkerRows(workers: EndpointWorkers, now: number): Row[] {
	return goneWorkers(workers).map(gone => ({
		key: gone.id,
		cells: [
			sanitizeLine(gone.id),
			sanitizeLine(gone.status),
			(gone.track?.restarts ?? 0) > 0 ? String(gone.track!.restarts) : '',
			formatDuration(goneLifetime(gone)),
			formatClock(gone.at, now),
			gone.queueWaited ? 'waited' : '',
		],
		tone: gone.queueWaited || gone.status === 'UNHEALTHY' ? 'warn' : 'muted',
	}));
}

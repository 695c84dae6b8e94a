import type {Rollout, WorkerList, WorkerRecord} from '../model/worker.js';

/** A status podtop saw a worker take: `restarted`, it was seen again with a reset uptime. */
export type WorkerStatusChange = {readonly at: number; readonly status: string; readonly restarted?: true};

/** Status changes kept per worker (the newest): a crash-looping worker restarts every minute or two, so this is its last half hour or so. */
export const statusChangesKept = 20;

/** What podtop learnt of one worker across reads (the service lists only what a worker is now). */
export type WorkerTrack = {
	/** When this client first saw it (epoch ms, this machine's clock). */
	readonly firstSeenAt: number;
	/** When its status last changed, or it was first seen. */
	readonly statusSince: number;
	/** Times it was seen again with a reset uptime (its container restarted). */
	readonly restarts: number;
	readonly lastRestartAt?: number;
	/** The statuses it took as this client saw them, oldest first (the first: as it was first seen), at most `statusChangesKept`. */
	readonly statuses: readonly WorkerStatusChange[];
};

/** A worker that was listed and is not any more: how long it had lived, and whether jobs waited as it went. */
export type GoneWorker = {
	readonly id: string;
	/** The read that no longer listed it (epoch ms): it went between the read before and this one. */
	readonly at: number;
	readonly status: string;
	readonly uptimeSeconds?: number;
	/** Jobs were waiting in the queue when it went: no scale-down, then. */
	readonly queueWaited: boolean;
	/** Its record as last listed, and what was learnt of it (absent in what a history file read back). */
	readonly last?: WorkerRecord;
	readonly track?: WorkerTrack;
};

/** An endpoint's workers as the latest read saw them, with what the diagnosis needs across reads. */
export type EndpointWorkers = {
	readonly list: WorkerList;
	readonly tracks: Readonly<Record<string, WorkerTrack>>;
	/** Newest last, at most `goneKept`. */
	readonly gone: readonly GoneWorker[];
};

/** Gone workers remembered per endpoint. */
export const goneKept = 50;

/** Uptime can read a little lower from one read to the next (rounding, the service's own clock): more than this is a restart. */
const uptimeSlackSeconds = 2;

/** The worker restarted between two reads: it started later, or its uptime went back. */
export function restarted(before: WorkerRecord, after: WorkerRecord): boolean {
	if (before.startedAt !== undefined && after.startedAt !== undefined) {
		return after.startedAt > before.startedAt + uptimeSlackSeconds * 1000;
	}

	return before.uptimeSeconds !== undefined && after.uptimeSeconds !== undefined && after.uptimeSeconds + uptimeSlackSeconds < before.uptimeSeconds;
}

/** Two reads of a worker that differ only by the uptime gone by: nothing to write. */
function sameButUptime(a: WorkerRecord, b: WorkerRecord): boolean {
	return (
		a.id === b.id &&
		a.status === b.status &&
		a.isStale === b.isStale &&
		a.version === b.version &&
		a.gpuTypeId === b.gpuTypeId &&
		a.gpuCount === b.gpuCount &&
		a.dataCenterId === b.dataCenterId &&
		a.image === b.image &&
		a.startedAt === b.startedAt &&
		!restarted(a, b)
	);
}

/**
An endpoint's workers after a read: restarts counted (the same id with a reset uptime), status changes
timed, the workers that went remembered. The same object when only uptimes moved on: a poll writes nothing then
(an uptime shown is the one read plus the time since `list.readAt`).
*/
export function trackWorkers(previous: EndpointWorkers | undefined, list: WorkerList, queueWaits: boolean): EndpointWorkers {
	const at = list.readAt;
	const before = new Map(previous?.list.workers.map(worker => [worker.id, worker]));
	if (
		previous &&
		previous.list.endpointVersion === list.endpointVersion &&
		previous.list.workers.length === list.workers.length &&
		list.workers.every((worker, index) => sameButUptime(previous.list.workers[index]!, worker))
	) {
		return previous;
	}

	const tracks: Record<string, WorkerTrack> = {};
	for (const worker of list.workers) {
		const seen = before.get(worker.id);
		const track = previous?.tracks[worker.id];
		if (!seen || !track) {
			tracks[worker.id] = {firstSeenAt: at, statusSince: at, restarts: 0, statuses: [{at, status: worker.status}]};
			continue;
		}

		const again = restarted(seen, worker);
		const changed = seen.status !== worker.status || again;
		tracks[worker.id] = {
			firstSeenAt: track.firstSeenAt,
			statusSince: changed ? at : track.statusSince,
			restarts: track.restarts + (again ? 1 : 0),
			lastRestartAt: again ? at : track.lastRestartAt,
			statuses: changed
				? [...track.statuses, {at, status: worker.status, ...(again ? {restarted: true as const} : {})}].slice(-statusChangesKept)
				: track.statuses,
		};
	}

	const listed = new Set(list.workers.map(worker => worker.id));
	const went: GoneWorker[] = [...before.values()]
		.filter(worker => !listed.has(worker.id))
		.map(worker => ({
			id: worker.id,
			at,
			status: worker.status,
			// The uptime it was last seen with: it went some time before this read.
			uptimeSeconds: worker.uptimeSeconds,
			queueWaited: queueWaits,
			last: worker,
			track: previous?.tracks[worker.id],
		}));
	const gone = [...(previous?.gone ?? []), ...went];
	return {list, tracks, gone: gone.length > goneKept ? gone.slice(gone.length - goneKept) : gone};
}

/** Serverless workers (REST v2): each watched endpoint's latest list, what was learnt across reads, and its rollout. */
export type WorkersState = {
	readonly byEndpoint: Readonly<Record<string, EndpointWorkers>>;
	readonly rollouts: Readonly<Record<string, Rollout>>;
	/** The latest read of an endpoint's workers failed: why (sanitised where shown). */
	readonly errors: Readonly<Record<string, string>>;
	/** Why no worker is listed at all: the management API in use does not publish them (GraphQL). */
	readonly unavailable?: string;
	/** The endpoints whose lists an agent feeds this process, with the time of the agent's read (a read of its own may be newer). */
	readonly fed?: Readonly<Record<string, number>>;
};

import type {LogTarget} from '../model/log-line.js';
import type {WorkerRecord} from '../model/worker.js';
import {v2BudgetKey} from '../poll/scheduler.js';
import type {PodtopStore} from '../store/create-store.js';
import {endpointDiagnosis} from '../store/endpoint-diagnosis.js';
import type {PodtopState} from '../store/state.js';
import type {WorkerTrack} from '../store/worker-track.js';
import type {LogHub} from './log-hub.js';

/** Streams the agent follows by itself for one endpoint… */
export const troubledStreamsPerEndpoint = 5;
/** …and in all: each a connect on v2's budget when it opens and again after a drop (20 in all, held open: no more requests a minute than reconnects). */
export const troubledStreams = 20;
/** A worker this young (since its container last started) may die young: followed, so its last lines are there if it does. */
export const youngWorkerMs = 10 * 60_000;
/** A followed worker the list no longer shows is held this long for its stream's end (the 404 that keeps its lines), then let go. */
export const unlistedHoldMs = 2 * 60_000;
/** A worker whose stream ended (gone, refused) is not followed again for this long (a list that lags still shows it). */
export const endedRestMs = 10 * 60_000;
/** How often the choice is made again without a new worker list (workers age out of young). */
export const troubledEveryMs = 30_000;

/**
v2's budget is tight: a 429, podtop's share spent, or another tool spending the key so that podtop's share is used up
or a window has under a quarter left. The agent opens no stream of its own then. Another tool's few requests slow
podtop's pace (`slowed: others` from the first foreign request) but leave room: an app sending jobs with the same key
kept the agent from following any troubled worker at all.
*/
const budgetTight = (state: PodtopState) => {
	const budget = state.budgets[v2BudgetKey];
	const slowed = budget?.slowed;
	if (!budget || !slowed) {
		return false;
	}

	if (slowed.reason !== 'others') {
		return true;
	}

	const window = budget.windows?.find(each => each.name === slowed.window);
	return budget.used >= budget.allowed || !window || window.remaining < window.limit / 4;
};

/** Why a worker is followed, most troubled first. */
const ranks = {unhealthy: 0, crashLoop: 1, restarted: 2, young: 3} as const;
type Rank = (typeof ranks)[keyof typeof ranks];

type Candidate = {readonly target: Extract<LogTarget, {kind: 'worker'}>; readonly rank: Rank; readonly ageMs: number};
type Followed = {readonly unfollow: () => void; unlistedSince?: number};

/** The backlog asked for: what the hub keeps of a gone worker. */
const followQuery = {tail: 200};

const keyOf = (endpointId: string, workerId: string) => `${endpointId}\0${workerId}`;

/** How long since the worker's container last started (its uptime resets with each restart). */
function ageOf(worker: WorkerRecord, track: WorkerTrack | undefined, readAt: number, now: number): number {
	if (worker.startedAt !== undefined) {
		return now - worker.startedAt;
	}

	if (worker.uptimeSeconds !== undefined) {
		return worker.uptimeSeconds * 1000 + (now - readAt);
	}

	return now - (track?.firstSeenAt ?? now);
}

/** The workers worth following, most troubled first (then youngest): each endpoint's first `perEndpoint`, the first `inAll` of them. */
export function troubledWorkers(state: PodtopState, now: number, followed: ReadonlySet<string> = new Set()): readonly Candidate[] {
	const chosen: Candidate[] = [];
	for (const [endpointId, workers] of Object.entries(state.workers.byEndpoint)) {
		const crashLoop = endpointDiagnosis(state, endpointId, now)?.findings.some(finding => finding.kind === 'crash-loop') ?? false;
		const candidates: Candidate[] = [];
		for (const worker of workers.list.workers) {
			const track = workers.tracks[worker.id];
			const ageMs = ageOf(worker, track, workers.list.readAt, now);
			const rank =
				worker.status === 'UNHEALTHY'
					? ranks.unhealthy
					: crashLoop
						? ranks.crashLoop
						: (track?.restarts ?? 0) > 0
							? ranks.restarted
							: ageMs < youngWorkerMs
								? ranks.young
								: undefined;
			if (rank !== undefined) {
				candidates.push({target: {kind: 'worker', endpointId, workerId: worker.id}, rank, ageMs});
			}
		}

		chosen.push(...order(candidates, followed).slice(0, troubledStreamsPerEndpoint));
	}

	return order(chosen, followed).slice(0, troubledStreams);
}

/** Most troubled first; among equals, those followed already (no stream dropped for a peer), then the youngest. */
function order(candidates: readonly Candidate[], followed: ReadonlySet<string>): Candidate[] {
	const isFollowed = ({target}: Candidate) => (followed.has(keyOf(target.endpointId, target.workerId)) ? 0 : 1);
	return candidates.toSorted((a, b) => a.rank - b.rank || isFollowed(a) - isFollowed(b) || a.ageMs - b.ageMs);
}

export type TroubledWorkers = {
	/** The workers followed now. */
	readonly following: () => ReadonlyArray<Extract<LogTarget, {kind: 'worker'}>>;
	readonly close: () => void;
};

/**
The agent follows, by itself, the workers whose last lines the service would forget: those UNHEALTHY,
those of an endpoint the diagnosis calls a crash loop, those that restarted (a reset uptime) and those
started less than `youngWorkerMs` ago (they may die young), at most `troubledStreamsPerEndpoint` per
endpoint and `troubledStreams` in all, through the hub (a client following the same worker shares the
stream). They are the agent's own: connected at the background priority (a user's `l` gets a stream
first), and none is opened while v2's budget is tight (those open stay: an open stream costs nothing). When one goes, its stream ends as gone and the hub keeps its last lines (in the history file).
A worker no longer worth following is let go; one the list no longer shows is held until its stream
ends, or `unlistedHoldMs`.
*/
export function followTroubledWorkers({
	store,
	hub,
	now = Date.now,
}: {
	readonly store: PodtopStore;
	readonly hub: LogHub;
	readonly now?: () => number;
}): TroubledWorkers {
	const followed = new Map<string, Followed & {readonly target: Extract<LogTarget, {kind: 'worker'}>}>();
	/** Workers whose streams ended, and when. */
	const ended = new Map<string, number>();
	let timer: NodeJS.Timeout | undefined;
	let closed = false;

	const choose = () => {
		if (closed) {
			return;
		}

		const state = store.getState();
		const at = now();
		for (const [key, endedAt] of ended) {
			if (at - endedAt >= endedRestMs) {
				ended.delete(key);
			}
		}

		const chosen = troubledWorkers(state, at, new Set(followed.keys())).filter(({target}) => !ended.has(keyOf(target.endpointId, target.workerId)));
		const wanted = new Set(chosen.map(({target}) => keyOf(target.endpointId, target.workerId)));
		for (const [key, each] of followed) {
			if (wanted.has(key)) {
				each.unlistedSince = undefined;
				continue;
			}

			const listed = state.workers.byEndpoint[each.target.endpointId]?.list.workers.some(worker => worker.id === each.target.workerId);
			if (!listed) {
				// Gone, most likely: its stream ends with a 404 soon, and the hub keeps its lines then.
				each.unlistedSince ??= at;
				if (at - each.unlistedSince < unlistedHoldMs) {
					continue;
				}
			}

			followed.delete(key);
			each.unfollow();
		}

		for (const {target} of budgetTight(state) ? [] : chosen) {
			const key = keyOf(target.endpointId, target.workerId);
			const ofEndpoint = [...followed.values()].filter(each => each.target.endpointId === target.endpointId).length;
			// Those held for their end count too: never more streams than the bounds say.
			if (followed.has(key) || followed.size >= troubledStreams || ofEndpoint >= troubledStreamsPerEndpoint) {
				continue;
			}

			const unfollow = hub.follow(
				target,
				followQuery,
				delivery => {
					if (!('lines' in delivery)) {
						// The stream is over (gone: its lines are kept); the hub let go of it.
						ended.set(key, now());
						followed.delete(key);
					}
				},
				{background: true},
			);
			if (!ended.has(key)) {
				followed.set(key, {target, unfollow});
			}
		}
	};

	const tick = () => {
		choose();
		if (!closed) {
			timer = setTimeout(tick, troubledEveryMs);
			timer.unref();
		}
	};

	const unsubscribe = store.subscribe((next, previous) => {
		// A new list, or the budget no longer tight: chosen again.
		if (next.workers !== previous.workers || (budgetTight(previous) && !budgetTight(next))) {
			choose();
		}
	});
	tick();
	return {
		following: () => [...followed.values()].map(({target}) => target),
		close() {
			closed = true;
			clearTimeout(timer);
			unsubscribe();
			for (const each of followed.values()) {
				each.unfollow();
			}

			followed.clear();
		},
	};
}

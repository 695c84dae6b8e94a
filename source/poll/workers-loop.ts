import {describeError} from '../api/errors.js';
import type {PodtopStore, StoreWrites} from '../store/create-store.js';
import type {Cadence} from './cadence.js';
import {createLoop, type Loop} from './loop.js';
import type {ScheduledApi} from './scheduled-api.js';

/** What is said where workers would be when the management API in use does not publish them. */
export const workersUnpublished = 'workers are published by REST v2 only: GraphQL has none';

/**
The workers of the endpoint whose details are open (every `workersOpenMs`, with its releases every
`releasesMs`) and of every endpoint whose jobs wait (every `workersQueuedMs`; while an agent feeds this process, its feed carries
those, and it lets them go), on v2's budget; the lists of endpoints neither open nor waiting are let go. Over GraphQL it asks nothing and says so once.
*/
export function createWorkersLoop(options: {
	readonly store: PodtopStore;
	readonly writes: StoreWrites;
	readonly api: ScheduledApi;
	readonly cadence: Cadence;
	readonly now: () => number;
}): {readonly loop: Loop; readonly watch: (endpointId: string) => () => void} {
	const {store, writes, api, cadence, now} = options;
	let watched: string | undefined;
	/** When each endpoint's workers, and the open one's releases, were last asked for. */
	const polled = new Map<string, number>();
	let releasesPolled: {readonly endpointId: string; readonly at: number} | undefined;

	const poll = async (endpointId: string, open: boolean) => {
		try {
			writes.setWorkers(endpointId, await api.workers(endpointId, open ? 'visible' : 'background'));
		} catch (error) {
			writes.setWorkersError(endpointId, describeError(error));
		}
	};

	const pollReleases = async (endpointId: string) => {
		try {
			writes.setRollout(endpointId, await api.releases(endpointId, 'visible'));
		} catch {
			// The rollout line keeps what it had: the workers' own error says what is wrong.
		}
	};

	const loop = createLoop(
		async () => {
			if (!api.workersPublished()) {
				writes.setWorkersUnavailable(workersUnpublished);
				return;
			}

			const state = store.getState();
			const at = now();
			// Fed by an agent, the waiting endpoints' workers come in its feed, and are its to let go: twenty attached dashboards
			// reading them each spent 149 v2 requests a minute of the key's 60 between them at the demo's size (58 × 429 in 90 s).
			const fed = state.via === 'agent';
			const queued = fed ? [] : state.endpoints.order.filter(id => (state.endpoints.byId[id]?.health?.jobs.inQueue ?? 0) > 0);
			const wanted = new Set([...(watched ? [watched] : []), ...queued]);
			const {byEndpoint, rollouts, errors} = state.workers;
			const fedLists = fed ? (state.workers.fed ?? {}) : {};
			writes.forgetWorkers(
				[...new Set([...Object.keys(byEndpoint), ...Object.keys(rollouts), ...Object.keys(errors)])].filter(id => !wanted.has(id) && !(id in fedLists)),
			);
			for (const id of polled.keys()) {
				if (!wanted.has(id)) {
					polled.delete(id);
				}
			}

			const due = [...wanted].filter(
				id => at - (polled.get(id) ?? Number.NEGATIVE_INFINITY) >= (id === watched ? cadence.workersOpenMs : cadence.workersQueuedMs),
			);
			for (const id of due) {
				polled.set(id, at);
			}

			const releasesDue = watched !== undefined && (releasesPolled?.endpointId !== watched || at - releasesPolled.at >= cadence.releasesMs);
			if (releasesDue) {
				releasesPolled = {endpointId: watched!, at};
			}

			await Promise.all([...due.map(async id => poll(id, id === watched)), ...(releasesDue ? [pollReleases(watched!)] : [])]);
		},
		// Open, the next read is due in `workersOpenMs`; otherwise a look every few seconds finds the endpoints whose jobs began to wait.
		() => (watched ? cadence.workersOpenMs : Math.min(cadence.workersQueuedMs, cadence.healthMs)),
	);
	return {
		loop,
		watch(endpointId) {
			watched = endpointId;
			polled.delete(endpointId);
			loop.trigger();
			return () => {
				if (watched === endpointId) {
					watched = undefined;
					loop.reschedule();
				}
			};
		},
	};
}

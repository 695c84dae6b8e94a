import {describeError, keyRefusalStatus} from '../api/errors.js';
import type {EndpointRecord} from '../model/endpoint.js';
import type {PodtopStore, StoreWrites} from '../store/create-store.js';
import type {PaneName} from '../store/types.js';
import {defaultCadence, type Cadence} from './cadence.js';
import {healthDue} from './health-due.js';
import {createJobsLoop, type ChunkListener} from './jobs-loop.js';
import {createPodDetailLoop} from './pod-detail-loop.js';
import {createLoop, type Loop} from './loop.js';
import {createPaneLists} from './pane-lists.js';
import {createWorkersLoop} from './workers-loop.js';
import type {ScheduledApi} from './scheduled-api.js';
import type {Priority, Scheduler} from './scheduler.js';

/** What a set of pollers keeps fresh: the dashboard and `watch` poll everything, `job` only its job. */
/** What a process keeps fresh. `workers`: the open endpoint's and those whose jobs wait (REST v2), for the diagnosis. */
export type PolledData = 'endpoints' | 'pods' | 'gpus' | 'jobs' | 'workers';
export const allPolledData: readonly PolledData[] = ['endpoints', 'pods', 'gpus', 'jobs', 'workers'];

export type {ChunkListener} from './jobs-loop.js';

export type Pollers = {
	/** Starts the loops; with `account: false`, all but the account's lists and health (an agent feeds those). */
	readonly start: (options?: {readonly account?: boolean}) => void;
	/** Polls the account's endpoints, health, pods and GPUs (true), or leaves them to an agent (false). */
	readonly setAccountPolling: (on: boolean) => void;
	/** An agent that feeds this process carries the balance (its `balance` feature): this process reads none of its own meanwhile. */
	readonly setBalanceFed: (fed: boolean) => void;
	/** Refresh everything now (the `r` key). */
	readonly refresh: () => void;
	/** Poll these now, after a write changed them: one job, one endpoint's health, the pod list. */
	readonly repoll: (what: {readonly jobKey?: string; readonly endpointId?: string; readonly pods?: boolean; readonly endpoints?: boolean}) => void;
	readonly listen: (jobKey: string, listener: ChunkListener) => () => void;
	/** The rows on screen: an endpoint's health is polled first and most often; a pod's row is kept fresh in a list of thousands. */
	readonly showing: (pane: 'endpoints' | 'pods', keys: readonly string[]) => void;
	/** Polls one pod's details while they are open; the function returned stops it. */
	readonly watchPod: (podId: string) => () => void;
	/** Polls one endpoint's workers often, and its releases, while its details are open; the function returned stops it. */
	readonly watchEndpoint: (endpointId: string) => () => void;
	readonly stop: () => void;
};

type Options = {
	readonly store: PodtopStore;
	readonly writes: StoreWrites;
	readonly api: ScheduledApi;
	readonly scheduler: Scheduler;
	readonly cadence?: Cadence;
	/** Watch only these endpoints (ids); all of the account's when absent. */
	readonly endpointFilter?: readonly string[];
	/** Headless modes: every pane counts as visible. */
	readonly allVisible?: boolean;
	readonly poll?: readonly PolledData[];
	readonly now?: () => number;
};

/**
With `engine.perform`, the only writers to the store: one self-scheduling loop per kind of data,
each through the scheduler's budgets, each reporting its source's health (last success, last
error, stale since).
*/
export function createPollers({
	store,
	writes,
	api,
	scheduler,
	cadence = defaultCadence,
	endpointFilter,
	allVisible = false,
	poll = allPolledData,
	now = Date.now,
}: Options): Pollers {
	const visible = (pane: PaneName) => allVisible || store.getState().focus === pane;
	const priority = (pane: PaneName): Priority => (visible(pane) ? 'visible' : 'background');

	const endpointsLoop = createLoop(
		async () => {
			try {
				const {endpoints: records, discount} = await api.endpointsAndDiscount('background');
				writes.setDiscount(discount);
				let watched: EndpointRecord[] = records;
				if (endpointFilter?.length) {
					// Ids outside the account (public model endpoints) are watched by id alone.
					watched = endpointFilter.map(id => records.find(record => record.id === id) ?? {id, name: id});
				}

				writes.setEndpoints(watched, now());
				writes.reportSource('graphql', now());
			} catch (error) {
				if (endpointFilter?.length && store.getState().endpoints.order.length === 0) {
					writes.setEndpoints(
						endpointFilter.map(id => ({id, name: id})),
						now(),
					);
				}

				writes.reportSource('graphql', now(), describeError(error), keyRefusalStatus(error));
			}

			healthLoop.trigger();
		},
		() => cadence.endpointsMs,
	);

	/** When each endpoint's health was last asked for, and which endpoints the user sees now. */
	const healthPolled = new Map<string, number>();
	let endpointsOnScreen: readonly string[] | undefined;
	const pollHealth = async (ids: readonly string[], healthPriority: Priority) => {
		if (ids.length === 0) {
			return [];
		}

		const results = await Promise.allSettled(ids.map(async id => api.health(id, healthPriority)));
		writes.setHealthResults(
			results.map((result, index) =>
				result.status === 'fulfilled' ? {endpointId: ids[index]!, health: result.value} : {endpointId: ids[index]!, error: describeError(result.reason)},
			),
			now(),
		);
		return results;
	};

	const healthLoop = createLoop(
		async () => {
			const ids = store.getState().endpoints.order;
			for (const id of healthPolled.keys()) {
				if (!store.getState().endpoints.byId[id]) {
					healthPolled.delete(id);
				}
			}

			const onScreen = allVisible || endpointsOnScreen === undefined ? undefined : new Set(visible('endpoints') ? endpointsOnScreen : []);
			const due = healthDue({ids, onScreen, lastPolled: healthPolled, now: now(), cadence});
			if (due.onScreen.length + due.offScreen.length === 0) {
				return;
			}

			for (const id of [...due.onScreen, ...due.offScreen]) {
				healthPolled.set(id, now());
			}

			const [first, second] = await Promise.all([pollHealth(due.onScreen, priority('endpoints')), pollHealth(due.offScreen, 'background')]);
			const results = [...first, ...second];
			const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
			const allFailed = failure !== undefined && results.every(result => result.status === 'rejected');
			writes.reportSource('jobApi', now(), allFailed ? describeError(failure.reason) : undefined, allFailed ? keyRefusalStatus(failure.reason) : undefined);
		},
		() => cadence.healthMs,
	);

	const {podsLoop, podsOnScreen, gpusLoop, onFocus} = createPaneLists({store, writes, api, cadence, allVisible, visible, priority, now});
	let unsubscribeFocus: (() => void) | undefined;

	const jobs = createJobsLoop({store, writes, api, cadence, now});
	const jobsLoop = jobs.loop;
	const {pollJob} = jobs;
	const podDetail = createPodDetailLoop({api, writes, cadence, now});
	const podDetailLoop = podDetail.loop;
	// The workers of the open endpoint, and of those whose jobs wait unless an agent feeds this process (its feed carries those).
	const workers = createWorkersLoop({store, writes, api, cadence, now});

	let publishedBudgets: ReturnType<Scheduler['snapshot']> = {};
	let publishedCount = 0;
	const budgetLoop = createLoop(
		async () => {
			// A snapshot of every budget is made only when one moved (a budget per endpoint: 500 objects a second otherwise).
			if (scheduler.movedSince(publishedBudgets, publishedCount)) {
				publishedBudgets = scheduler.snapshot();
				publishedCount = Object.keys(publishedBudgets).length;
				writes.setBudgets(publishedBudgets);
			}
		},
		() => cadence.budgetPublishMs,
	);

	// Once a minute, on GraphQL's budget; not while an agent's feed carries it (each of twenty attached dashboards spent 1 GraphQL request a minute on it).
	let balanceFed = false;
	const balanceLoop = createLoop(
		async () => {
			if (balanceFed) {
				return;
			}

			try {
				writes.setBalance(await api.balance('background'));
			} catch {
				// Kept as last read: a failing GraphQL is said by the endpoints' source.
			}
		},
		() => cadence.balanceMs ?? 60_000,
	);

	const accountLoops: Loop[] = [
		...(poll.includes('endpoints') ? [endpointsLoop, healthLoop] : []),
		...(poll.includes('pods') ? [podsLoop, podsOnScreen.loop] : []),
		...(poll.includes('gpus') ? [gpusLoop] : []),
	];
	const ownLoops: Loop[] = [
		...(poll.includes('endpoints') ? [balanceLoop] : []),
		...(poll.includes('pods') ? [podDetailLoop] : []),
		...(poll.includes('endpoints') && poll.includes('workers') ? [workers.loop] : []),
		...(poll.includes('jobs') ? [jobsLoop] : []),
		budgetLoop,
	];
	const loops = [...accountLoops, ...ownLoops];
	const setAccountPolling = (on: boolean) => {
		for (const loop of accountLoops) {
			if (on) {
				loop.start();
			} else {
				loop.stop();
			}
		}
	};

	return {
		start({account = true} = {}) {
			for (const loop of ownLoops) {
				loop.start();
			}

			setAccountPolling(account);
			unsubscribeFocus ??= store.subscribe((state, previous) => {
				if (state.focus !== previous.focus) {
					onFocus(state.focus);
				}
			});
		},
		setAccountPolling,
		setBalanceFed(fed) {
			balanceFed = fed;
		},
		refresh() {
			for (const loop of loops) {
				loop.trigger();
			}
		},
		repoll({jobKey, endpointId, pods, endpoints}) {
			if (jobKey) {
				// A terminal job is not polled by the loop: poll it once here (a retried job starts again).
				const job = store.getState().jobs.byKey.get(jobKey);
				if (job) {
					void pollJob(job);
				}
			}

			if (endpointId && poll.includes('endpoints')) {
				void pollHealth([endpointId], 'action').catch(() => undefined);
			}

			if (pods && poll.includes('pods')) {
				podsLoop.trigger();
			}

			if (endpoints && poll.includes('endpoints')) {
				endpointsLoop.trigger();
			}
		},
		watchPod: podDetail.watch,
		watchEndpoint: workers.watch,
		showing(pane, keys) {
			if (pane === 'pods') {
				podsOnScreen.showing(keys);
				return;
			}

			const endpointIds = keys;
			const wasKnown = endpointsOnScreen !== undefined;
			const fresh = endpointIds.filter(id => !endpointsOnScreen?.includes(id));
			endpointsOnScreen = endpointIds;
			// Rows that scrolled into view and were last polled long ago are asked for at once.
			if (wasKnown && fresh.some(id => now() - (healthPolled.get(id) ?? 0) > cadence.healthMs)) {
				healthLoop.trigger();
			}
		},
		listen: jobs.listen,
		stop() {
			unsubscribeFocus?.();
			unsubscribeFocus = undefined;
			for (const loop of loops) {
				loop.stop();
			}
		},
	};
}

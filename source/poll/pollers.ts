import {describeError} from '../api/errors.js';
import type {EndpointRecord} from '../api/graphql-types.js';
import {isTerminalStatus} from '../api/job-types.js';
import type {PodtopStore} from '../store/create-store.js';
import type {PaneName} from '../store/types.js';
import {budgetsChanged} from './budget-change.js';
import {defaultCadence, type Cadence} from './cadence.js';
import {createLoop, type Loop} from './loop.js';
import type {ScheduledApi} from './scheduled-api.js';
import type {Priority, Scheduler} from './scheduler.js';

export type Pollers = {
	readonly start: () => void;
	/** Refresh everything now (the `r` key). */
	readonly refresh: () => void;
	readonly stop: () => void;
};

type Options = {
	readonly store: PodtopStore;
	readonly api: ScheduledApi;
	readonly scheduler: Scheduler;
	readonly cadence?: Cadence;
	/** Watch only these endpoints (ids); all of the account's when absent. */
	readonly endpointFilter?: readonly string[];
	/** Headless modes: every pane counts as visible. */
	readonly allVisible?: boolean;
	readonly now?: () => number;
};

/**
The only writers to the store: one self-scheduling loop per kind of data, each through the
scheduler's budgets, each reporting its source's health (last success, last error, stale since).
*/
export function createPollers({store, api, scheduler, cadence = defaultCadence, endpointFilter, allVisible = false, now = Date.now}: Options): Pollers {
	const {actions} = store.getState();
	const visible = (pane: PaneName) => allVisible || store.getState().ui.visiblePane === pane;
	const priority = (pane: PaneName): Priority => (visible(pane) ? 'visible' : 'background');
	const lastPolled = new Map<string, number>();

	const endpointsLoop = createLoop(async () => {
		try {
			const records = await api.endpoints('background');
			let watched: EndpointRecord[] = records;
			if (endpointFilter?.length) {
				// Ids outside the account (public model endpoints) are watched by id alone.
				watched = endpointFilter.map(id => records.find(record => record.id === id) ?? {id, name: id});
			}

			actions.setEndpoints(watched, now());
			actions.reportSource('graphql', now());
		} catch (error) {
			if (endpointFilter?.length && store.getState().endpoints.order.length === 0) {
				actions.setEndpoints(endpointFilter.map(id => ({id, name: id})), now());
			}

			actions.reportSource('graphql', now(), describeError(error));
		}

		healthLoop.trigger();
	}, () => cadence.endpointsMs);

	const healthLoop = createLoop(async () => {
		const ids = store.getState().endpoints.order;
		if (ids.length === 0) {
			return;
		}

		const results = await Promise.allSettled(ids.map(async id => api.health(id, priority('endpoints'))));
		actions.setHealthResults(results.map((result, index) => (result.status === 'fulfilled' ? {endpointId: ids[index]!, health: result.value} : {endpointId: ids[index]!, error: describeError(result.reason)})), now());
		const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
		actions.reportSource('jobApi', now(), failure && results.every(result => result.status === 'rejected') ? describeError(failure.reason) : undefined);
	}, () => (visible('endpoints') ? cadence.healthMs : cadence.healthHiddenMs));

	/** A GraphQL list behind one pane: fetched at the pane's cadence (slower while hidden), written whole. */
	const listLoop = <T>(pane: PaneName, fetch: (priority: Priority) => Promise<T>, write: (value: T, at: number) => void, visibleMs: number, hiddenMs: number) => createLoop(async () => {
		try {
			write(await fetch(priority(pane)), now());
			actions.reportSource('graphql', now());
		} catch (error) {
			actions.reportSource('graphql', now(), describeError(error));
		}
	}, () => (visible(pane) ? visibleMs : hiddenMs));

	const podsLoop = listLoop('pods', api.pods, actions.setPods, cadence.podsMs, cadence.podsHiddenMs);
	const gpusLoop = listLoop('gpus', api.gpuTypes, actions.setGpuTypes, cadence.gpusMs, cadence.gpusHiddenMs);

	const jobsLoop = createLoop(async () => {
		const {byKey} = store.getState().jobs;
		for (const key of lastPolled.keys()) {
			if (!byKey.has(key)) {
				lastPolled.delete(key);
			}
		}

		const due = [...byKey.values()].filter(job => {
			if (isTerminalStatus(job.status)) {
				return false;
			}

			const every = job.follow ? cadence.streamMs : (job.status === 'IN_PROGRESS' ? cadence.jobInProgressMs : (job.status === 'IN_QUEUE' ? cadence.jobInQueueMs : cadence.jobUnknownMs));
			return now() - (lastPolled.get(job.key) ?? 0) >= every;
		});
		await Promise.allSettled(due.map(async job => {
			lastPolled.set(job.key, now());
			const jobPriority: Priority = job.follow ? 'visible' : 'background';
			try {
				if (job.follow && job.status !== 'UNKNOWN') {
					const body = await api.stream(job.endpointId, job.id, jobPriority);
					actions.appendStream(job.key, body.status, body.stream, now());
					if (!isTerminalStatus(body.status)) {
						return;
					}
				}

				actions.updateJob(job.key, await api.status(job.endpointId, job.id, jobPriority), now());
			} catch (error) {
				actions.setJobError(job.key, describeError(error));
			}
		}));
	}, () => cadence.jobsTickMs);

	let publishedBudgets: ReturnType<Scheduler['snapshot']> = {};
	const budgetLoop = createLoop(async () => {
		const snapshot = scheduler.snapshot();
		if (budgetsChanged(publishedBudgets, snapshot)) {
			publishedBudgets = snapshot;
			actions.setBudgets(snapshot);
		}
	}, () => cadence.budgetPublishMs);

	const loops: Loop[] = [endpointsLoop, healthLoop, podsLoop, gpusLoop, jobsLoop, budgetLoop];
	return {
		start() {
			for (const loop of loops) {
				loop.start();
			}
		},
		refresh() {
			for (const loop of loops) {
				loop.trigger();
			}
		},
		stop() {
			for (const loop of loops) {
				loop.stop();
			}
		},
	};
}

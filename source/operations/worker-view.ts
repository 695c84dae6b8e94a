import {goneWorkers} from '../rows/worker-rows.js';
import type {PodtopState} from '../store/state.js';
import {currentView, type View} from '../view-state/view-state.js';
import {endpointIdNamed} from './endpoint-named.js';
import {defineOperation, unavailable, type Operation} from './operation.js';

type WorkerView = Extract<View, {type: 'worker'}>;

/** The ids of the workers podtop knows of an endpoint: those listed now, then the gone. */
export function knownWorkerIds(state: PodtopState, endpointId: string | undefined): string[] {
	const workers = endpointId === undefined ? undefined : state.workers.byEndpoint[endpointId];
	return workers ? [...workers.list.workers.map(worker => worker.id), ...goneWorkers(workers).map(gone => gone.id)] : [];
}

/** `:worker <endpoint> <worker>`: the worker by id, or by the start of one podtop knows (listed or gone); an id it has not seen yet is taken as it is. */
function namedWorker(state: PodtopState, args: readonly string[]): WorkerView | ReturnType<typeof unavailable> {
	const [endpoint, worker, ...rest] = args;
	const endpointId = endpoint === undefined ? undefined : endpointIdNamed(state, endpoint);
	if (endpointId === undefined || worker === undefined || rest.length > 0) {
		return unavailable('usage: :worker <endpoint> <worker>, the endpoint by name or id');
	}

	const known = knownWorkerIds(state, endpointId);
	const starting = known.filter(id => id.startsWith(worker));
	const workerId = known.includes(worker) ? worker : starting.length === 1 ? starting[0]! : worker;
	return {type: 'worker', endpointId, workerId};
}

/** A worker's own details: `w` then Enter in an endpoint's details (its workers table), and `:worker` where workers are about. */
export const workerViewOperations: readonly Operation[] = [
	defineOperation<undefined>({
		id: 'workers.focus',
		title: 'j/k and Enter on the workers table, or back on the jobs',
		keys: ['w'],
		scope: ['endpoint'],
		danger: 'read',
		hint: 'workers',
		target: () => undefined,
		run({view}) {
			view.dispatch({type: 'switch-endpoint-focus'});
		},
	}),
	defineOperation<WorkerView>({
		id: 'worker.named',
		title: "a worker's details",
		keys: [],
		// Where workers are about (the help of the list panes is full at 120×40): an endpoint's details, a worker, a job, a log.
		scope: ['endpoint', 'worker', 'job', 'logs'],
		danger: 'read',
		palette: {name: 'worker', args: ['endpoint', 'worker']},
		target(context, args) {
			const view = currentView(context.view.getState());
			if (args.length === 1 && (view.type === 'endpoint' || view.type === 'worker')) {
				return namedWorker(context.store.getState(), [view.endpointId, ...args]);
			}

			return namedWorker(context.store.getState(), args);
		},
		run({view}, worker) {
			view.dispatch({type: 'open', view: worker});
		},
	}),
];

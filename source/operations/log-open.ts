import type {LogSubject} from '../model/log-session.js';
import type {PodtopState} from '../store/state.js';
import {jobKey} from '../store/job-key.js';
import {currentView, type View} from '../view-state/view-state.js';
import {endpointIdNamed} from './endpoint-named.js';
import {defineOperation, unavailable, type Operation, type OperationContext, type Unavailable} from './operation.js';
import {selectedIn} from './selection.js';

type LogsView = Extract<View, {type: 'logs'}>;

const endpointLabel = (state: PodtopState, endpointId: string) => state.endpoints.byId[endpointId]?.record.name ?? endpointId;

/** The pod a palette argument names: by id, else by its name. */
function podIdNamed(state: PodtopState, text: string): string | undefined {
	const {byId, order} = state.pods;
	if (byId[text]) {
		return text;
	}

	const named = order.filter(id => byId[id]?.record.name === text);
	return named.length === 1 ? named[0] : undefined;
}

const podLogs = (state: PodtopState, podId: string): LogsView => ({
	type: 'logs',
	subject: {kind: 'pod', podId},
	label: `pod ${state.pods.byId[podId]?.record.name ?? podId}`,
});

/** An endpoint's workers merged, or one of them. */
function workerLogs(state: PodtopState, endpointId: string, workerId?: string): LogsView {
	const subject: LogSubject = workerId === undefined ? {kind: 'endpoint', endpointId} : {kind: 'worker', endpointId, workerId};
	const endpoint = endpointLabel(state, endpointId);
	return {type: 'logs', subject, label: workerId === undefined ? `${endpoint}: every worker` : `worker ${workerId} of ${endpoint}`};
}

/** `:logs <pod|endpoint> [worker]`: a pod's log, an endpoint's workers merged, or one worker's. */
function namedLogs(state: PodtopState, args: readonly string[]): LogsView | Unavailable {
	const [name = '', workerId] = args;
	const podId = podIdNamed(state, name);
	if (podId !== undefined && workerId === undefined) {
		return podLogs(state, podId);
	}

	const endpointId = endpointIdNamed(state, name);
	return endpointId === undefined
		? unavailable(`:logs needs a pod or an endpoint the account has (by name or id), then a worker if you want one`)
		: workerLogs(state, endpointId, workerId);
}

/** What `l` opens here: the selected pod's log, the open pod's, the open endpoint's workers merged, the open worker's, or the worker that ran the open job. */
function logsInView(context: OperationContext): LogsView | Unavailable {
	const state = context.store.getState();
	const view = currentView(context.view.getState());
	switch (view.type) {
		case 'pod': {
			return podLogs(state, view.podId);
		}

		case 'endpoint': {
			return workerLogs(state, view.endpointId);
		}

		case 'worker': {
			return workerLogs(state, view.endpointId, view.workerId);
		}

		case 'job': {
			const workerId = state.jobs.byKey.get(jobKey(view.endpointId, view.jobId))?.workerId;
			return workerId === undefined ? unavailable('no worker has taken this job yet: its logs are the worker’s') : workerLogs(state, view.endpointId, workerId);
		}

		default: {
			const podId = selectedIn(context, 'pods');
			return podId === undefined ? unavailable('no pod selected') : podLogs(state, podId);
		}
	}
}

const openLogs = ({view}: OperationContext, logs: LogsView) => {
	view.dispatch({type: 'open', view: logs});
};

/** A log view's target, when the engine can follow logs at all. */
function withLogs(context: OperationContext, target: () => LogsView | Unavailable): LogsView | Unavailable {
	if (context.engine && !context.engine.openLogs) {
		return unavailable('logs need REST v2: the management API in use (GraphQL) publishes none (--management-api v2)');
	}

	return target();
}

/** Opening a log view: `l` on a pod, an endpoint's details (every worker merged) or a job (its worker), and `:logs`. */
export const logOpenOperations: readonly Operation[] = [
	defineOperation<LogsView>({
		id: 'logs.open',
		title: "the log: the pod's, the worker's (a job's), or every worker of the endpoint merged",
		keys: ['l'],
		scope: ['pods', 'pod', 'endpoint', 'job', 'worker'],
		danger: 'read',
		hint: 'logs',
		target: context => withLogs(context, () => logsInView(context)),
		run: openLogs,
	}),
	defineOperation<LogsView>({
		id: 'logs.named',
		title: 'a log: :logs <pod|endpoint> [worker]',
		keys: [],
		scope: ['global'],
		danger: 'read',
		palette: {name: 'logs', aliases: ['log']},
		target: (context, args) => withLogs(context, () => (args.length > 0 ? namedLogs(context.store.getState(), args) : logsInView(context))),
		run: openLogs,
	}),
];

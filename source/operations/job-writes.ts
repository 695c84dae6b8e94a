import {isTerminalStatus} from '../api/job-types.js';
import {sanitizeLine} from '../format/sanitize.js';
import {jobKey, splitJobKey} from '../store/job-key.js';
import type {TrackedJob} from '../store/types.js';
import {currentView} from '../view-state/view-state.js';
import {defineOperation, unavailable, type Operation, type OperationContext, type Unavailable} from './operation.js';
import {performFromUi, writeTarget} from './report.js';
import {selectedIn, selectedKey} from './selection.js';

type JobTarget = {readonly endpointId: string; readonly jobId: string};

/** The job the user is on: the one whose stream is open, or the selected row of the endpoint details (none while `w` put j/k on its workers). */
function jobInView(context: OperationContext): JobTarget | undefined {
	const state = context.view.getState();
	const view = currentView(state);
	if (view.type === 'job') {
		return {endpointId: view.endpointId, jobId: view.jobId};
	}

	const key = view.type === 'endpoint' && state.endpointFocus === 'jobs' ? selectedKey(context) : undefined;
	return key ? splitJobKey(key) : undefined;
}

/** The job on screen as a write's target; `refuse` says why its known state rules the write out. */
function jobTarget(context: OperationContext, refuse: (job: TrackedJob) => string | undefined): JobTarget | Unavailable {
	return writeTarget(
		context,
		() => {
			const target = jobInView(context);
			const job = target && context.store.getState().jobs.byKey.get(jobKey(target.endpointId, target.jobId));
			const reason = job && refuse(job);
			return reason ? unavailable(reason) : target;
		},
		'no job selected',
	);
}

const name = (context: OperationContext, endpointId: string) => sanitizeLine(context.store.getState().endpoints.byId[endpointId]?.record.name ?? endpointId);

/** Cancel, retry and purge from the dashboard: each asks first and goes through `engine.perform`. */
export const jobWriteOperations: readonly Operation[] = [
	defineOperation<JobTarget>({
		id: 'job.cancel',
		title: 'cancel the job (queued or running)',
		keys: ['c'],
		scope: ['endpoint', 'job'],
		danger: 'write',
		hint: 'cancel',
		target: context =>
			jobTarget(context, job =>
				isTerminalStatus(job.status) ? `job ${sanitizeLine(job.id)} is ${sanitizeLine(job.status)} already: nothing to cancel` : undefined,
			),
		confirm: ({endpointId, jobId}, context) => ({prompt: `Cancel job ${sanitizeLine(jobId)} on ${name(context, endpointId)}?`}),
		async run(context, target) {
			await performFromUi(context, 'job.cancel', target, undefined, `cancelling job ${sanitizeLine(target.jobId)}`);
		},
	}),
	defineOperation<JobTarget>({
		id: 'job.retry',
		title: 'retry the job (FAILED or TIMED_OUT, while its result exists)',
		keys: ['R'],
		scope: ['endpoint', 'job'],
		danger: 'write',
		hint: 'retry',
		target: context =>
			jobTarget(context, job =>
				job.status === 'FAILED' || job.status === 'TIMED_OUT'
					? undefined
					: `only a FAILED or TIMED_OUT job can be retried; job ${sanitizeLine(job.id)} is ${sanitizeLine(job.status)}`,
			),
		confirm: ({endpointId, jobId}, context) => ({prompt: `Retry job ${sanitizeLine(jobId)} on ${name(context, endpointId)}?`}),
		async run(context, target) {
			await performFromUi(context, 'job.retry', target, undefined, `retrying job ${sanitizeLine(target.jobId)}`);
		},
	}),
	defineOperation<string>({
		id: 'endpoint.purge-queue',
		title: "purge the endpoint's queue (running jobs are untouched)",
		keys: ['P'],
		scope: ['endpoints', 'endpoint'],
		danger: 'destructive',
		hint: 'purge the queue',
		target: context =>
			writeTarget(
				context,
				() => {
					const view = currentView(context.view.getState());
					const endpointId = view.type === 'endpoint' ? view.endpointId : selectedIn(context, 'endpoints');
					// An empty queue is said so: there is nothing to confirm, let alone a name to type.
					const queued = endpointId ? context.store.getState().endpoints.byId[endpointId]?.health?.jobs.inQueue : undefined;
					return queued === 0 ? unavailable(`the queue of ${name(context, endpointId!)} is empty: nothing to purge`) : endpointId;
				},
				'no endpoint selected',
			),
		confirm(endpointId, context) {
			const queued = context.store.getState().endpoints.byId[endpointId]?.health?.jobs.inQueue;
			return {
				prompt: `Purge ${queued === undefined ? 'the' : `${queued} queued job(s) from the`} queue of ${name(context, endpointId)}? Running jobs are untouched.`,
				typeToConfirm: name(context, endpointId),
			};
		},
		async run(context, endpointId) {
			const result = await performFromUi(context, 'endpoint.purge-queue', {endpointId}, undefined, `purging the queue of ${name(context, endpointId)}`);
			if (result?.outcome === 'ok' && result.value) {
				context.view.dispatch({
					type: 'message',
					text: `purged: ${result.value.removed} queued job(s) removed from ${name(context, endpointId)}; running jobs untouched`,
					tone: 'good',
				});
			}
		},
	}),
];

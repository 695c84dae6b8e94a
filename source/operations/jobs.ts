import {sanitizeLine} from '../format/sanitize.js';
import {imageForms} from '../forms/image-form.js';
import {jobForm} from '../forms/job-form.js';
import type {Submission} from '../forms/submission.js';
import {imageModelOf} from '../requests/image-request.js';
import {splitJobKey} from '../store/job-key.js';
import {currentView, type View} from '../view-state/view-state.js';
import {defineOperation, unavailable, type Operation, type OperationContext} from './operation.js';
import {endpointIdNamed} from './endpoint-named.js';
import {performFromUi, writeTarget} from './report.js';
import {selectedIn, selectedKey} from './selection.js';

type JobTarget = {readonly endpointId: string; readonly jobId: string};
type SubmitTarget = {readonly endpointId: string; readonly form?: Submission};

const mapDefined = (endpointId: string | undefined) => (endpointId === undefined ? undefined : {endpointId});

/** The endpoint the user is on: the selected row of the Endpoints pane, or the endpoint whose details are open. */
function endpointInView(context: OperationContext): string | undefined {
	const view = currentView(context.view.getState());
	return view.type === 'endpoint' ? view.endpointId : selectedIn(context, 'endpoints');
}

/** The endpoint a palette argument names (by name or id; one the store does not list is taken as an id), else the one in view. */
const endpointArgument = (context: OperationContext, text: string | undefined) =>
	text === undefined ? endpointInView(context) : (endpointIdNamed(context.store.getState(), text) ?? text);

const endpointName = (context: OperationContext, endpointId: string) =>
	sanitizeLine(context.store.getState().endpoints.byId[endpointId]?.record.name ?? endpointId);

/** The input of the `t` test job: short, and understood by text-generation and echo workers alike. */
export const testJobInput = {prompt: 'Hello from podtop: a short test job.', max_tokens: 64};

/** The chat message of `c` at the test job's question, and of `:chat`. */
export const testChatMessage = 'Hello from podtop: in a sentence, what are you?';

const openJob = ({view}: OperationContext, {endpointId, jobId}: JobTarget) => {
	view.dispatch({type: 'open', view: {type: 'job', endpointId, jobId}});
};

/** Opening, following and sending jobs. */
export const jobOperations: readonly Operation[] = [
	defineOperation<View>({
		id: 'job.open',
		title: "open the selected job's stream (a worker's details after w)",
		keys: ['enter'],
		scope: ['endpoint'],
		danger: 'read',
		hint: 'open',
		footer: 'open',
		target(context) {
			const key = selectedKey(context);
			const view = context.view.getState();
			const current = currentView(view);
			if (view.endpointFocus === 'workers' && current.type === 'endpoint') {
				return key ? {type: 'worker', endpointId: current.endpointId, workerId: key} : unavailable('no worker to open: w goes back to the jobs');
			}

			return key ? {type: 'job', ...splitJobKey(key)} : unavailable('no job to open: press t to send a test job');
		},
		run({view}, target) {
			view.dispatch({type: 'open', view: target});
		},
	}),
	defineOperation<undefined>({
		id: 'jobs.status-filter',
		title: 'show tracked jobs by status: all, active, completed, failed, cancelled',
		keys: ['f'],
		scope: ['endpoint'],
		danger: 'read',
		hint: 'status',
		footer: 'status',
		target: () => undefined,
		run({view}) {
			view.dispatch({type: 'next-job-status-filter'});
		},
	}),
	defineOperation<JobTarget>({
		id: 'job.follow',
		title: 'open a job by id and follow it',
		keys: [],
		scope: ['global'],
		danger: 'read',
		palette: {name: 'job', args: ['endpoint', 'job']},
		target(context, [endpoint, jobId, ...rest]) {
			if (!endpoint || !jobId || rest.length > 0) {
				return unavailable('usage: :job <endpoint> <job>, the endpoint by name or id');
			}

			// An endpoint the store does not list is taken as an id (a job on an endpoint listed later, or on a public model).
			return {endpointId: endpointIdNamed(context.store.getState(), endpoint) ?? endpoint, jobId};
		},
		run: openJob,
	}),
	defineOperation<SubmitTarget>({
		id: 'job.submit',
		title: 'new job: fill in its input (a prompt form on image models) and send it',
		keys: ['n'],
		scope: ['endpoints', 'endpoint'],
		danger: 'write',
		hint: 'new job',
		palette: {name: 'run', aliases: ['submit'], args: ['endpoint']},
		footer: 'new job',
		target: (context, [endpoint]) => writeTarget(context, () => mapDefined(endpointArgument(context, endpoint)), 'no endpoint selected'),
		form({endpointId}, context) {
			const image = imageModelOf(endpointId);
			const spec = imageForms.get(endpointId) ?? jobForm;
			const title = image ? `New image on ${image.title}` : `New job on ${endpointName(context, endpointId)}`;
			return {spec, draftKey: `${spec.id}:${endpointId}`, title};
		},
		confirm: ({endpointId, form}, context) => ({prompt: `Send this job to ${endpointName(context, endpointId)} (${form?.summary ?? ''})?`}),
		async run(context, {endpointId, form}) {
			if (!form) {
				return;
			}

			const result = await performFromUi(
				context,
				'job.submit',
				{endpointId},
				{request: form.request, sync: form.sync},
				`sending a job to ${endpointName(context, endpointId)}${form.sync ? ' and waiting for its result' : ''}`,
			);
			if (result?.outcome === 'ok' && result.value) {
				openJob(context, {endpointId, jobId: result.value.id});
			}
		},
	}),
	defineOperation<string>({
		id: 'job.chat',
		title: 'send a chat message over /compat (OpenAI-compatible) and watch it stream, with tokens/s',
		keys: [],
		scope: ['endpoints', 'endpoint'],
		danger: 'write',
		palette: {name: 'chat', args: ['endpoint']},
		target: (context, [endpoint]) => writeTarget(context, () => endpointArgument(context, endpoint), 'no endpoint selected'),
		confirm: (endpointId, context) => ({prompt: `Send a chat message to ${endpointName(context, endpointId)} over /compat?`}),
		async run(context, endpointId) {
			const chatId = `chat-${Date.now().toString(36)}`;
			const sent = performFromUi(
				context,
				'endpoint.chat',
				{endpointId},
				{message: testChatMessage, chatId, maxTokens: 128},
				`chatting with ${endpointName(context, endpointId)} over /compat`,
			);
			// The answer streams into the job view as it arrives.
			openJob(context, {endpointId, jobId: chatId});
			await sent;
		},
	}),
	defineOperation<string>({
		id: 'job.test',
		title: 'send a test job to the endpoint and follow it',
		keys: ['t'],
		scope: ['endpoints', 'endpoint'],
		danger: 'write',
		hint: 'test job',
		target: context => writeTarget(context, () => endpointInView(context), 'no endpoint selected'),
		confirm: (endpointId, context) => ({
			prompt: `Send a test job to ${endpointName(context, endpointId)}?`,
			alternative: {key: 'c', label: 'a chat over /compat instead (language models)', operationId: 'job.chat'},
		}),
		async run(context, endpointId) {
			const result = await performFromUi(
				context,
				'job.submit',
				{endpointId},
				{request: {input: testJobInput}},
				`sending a test job to ${endpointName(context, endpointId)}`,
			);
			if (result?.outcome === 'ok' && result.value) {
				openJob(context, {endpointId, jobId: result.value.id});
			}
		},
	}),
];

import type {JobRequest} from '../api/job-types.js';
import {formatBytes} from '../format/numbers.js';
import {
	bodyLimits,
	bodySizeProblem,
	executionTimeoutProblem,
	parseJobInput,
	policyOf,
	requestBytes,
	syncWaitProblem,
	ttlProblem,
	webhookProblem,
} from '../requests/job-request.js';
import {numberValue, type FormCheck, type FormSpec, type FormValues} from './form.js';
import type {Submission} from './submission.js';

const isSync = (values: FormValues) => values.route === 'runsync';

/** A number field checked by a rule of the service; empty leaves the service's default. */
function checkedNumber(text: string | undefined, rule: (value: number) => string | undefined): {value?: number; problem?: string} {
	const parsed = numberValue(text ?? '');
	return parsed.value === undefined ? parsed : {value: parsed.value, problem: rule(parsed.value)};
}

function checkJobForm(values: FormValues): FormCheck<Submission> {
	const problems: Record<string, string> = {};
	const parsed = parseJobInput(values.input ?? '');
	if ('problem' in parsed) {
		problems.input = parsed.problem;
	}

	const sync = isSync(values);
	const wait = sync ? checkedNumber(values.wait, syncWaitProblem) : {};
	const executionTimeout = checkedNumber(values.executionTimeout, executionTimeoutProblem);
	const ttl = checkedNumber(values.ttl, ttlProblem);
	const webhook = (values.webhook ?? '').trim();
	for (const [name, problem] of Object.entries({
		wait: wait.problem,
		executionTimeout: executionTimeout.problem,
		ttl: ttl.problem,
		webhook: webhook === '' ? undefined : webhookProblem(webhook),
	})) {
		if (problem) {
			problems[name] = problem;
		}
	}

	const route = sync ? '/runsync' : '/run';
	const limit = formatBytes(sync ? bodyLimits.runsync : bodyLimits.run);
	if (!('input' in parsed)) {
		return {problems, summary: `${route} · fix the input to see its size (limit ${limit})`};
	}

	const policy = policyOf({executionTimeout: executionTimeout.value, ttl: ttl.value, lowPriority: values.lowPriority === 'yes'});
	const request: JobRequest = {input: parsed.input, ...(webhook ? {webhook} : {}), ...(policy ? {policy} : {})};
	const bytes = requestBytes(request);
	const tooBig = bodySizeProblem(bytes, sync);
	if (tooBig) {
		problems.input = tooBig;
	}

	const summary = `${route} · ${formatBytes(bytes)} of ${limit}`;
	return Object.keys(problems).length > 0
		? {problems, summary}
		: {problems, summary, result: {request, ...(sync ? {sync: {waitMs: wait.value}} : {}), summary}};
}

/** The submit form of an ordinary endpoint: JSON input, route, policy, webhook. */
export const jobForm: FormSpec<Submission> = {
	id: 'job',
	fields: [
		{name: 'input', label: 'input (JSON)', kind: 'json', hint: 'the job\'s "input" object'},
		{name: 'route', label: 'route', kind: 'choice', choices: ['run', 'runsync'], hint: 'run queues it (10 MB); runsync waits for the result (20 MB)'},
		{name: 'wait', label: 'wait (ms)', kind: 'text', hint: 'how long runsync holds the answer, 1000–300000; empty: 90000', shown: isSync},
		{name: 'executionTimeout', label: 'execution timeout', kind: 'text', hint: "ms, over 5000; empty: the endpoint's"},
		{name: 'ttl', label: 'ttl', kind: 'text', hint: 'ms in queue plus running, 10000 to 7 days; empty: 24 h'},
		{name: 'lowPriority', label: 'low priority', kind: 'toggle', choices: ['no', 'yes'], hint: 'waits behind the rest, never scales workers up'},
		{name: 'webhook', label: 'webhook', kind: 'text', hint: 'http(s) URL the service calls at the end; empty: none'},
	],
	initial: {input: '{\n  "prompt": "Hello from podtop"\n}', route: 'run', wait: '', executionTimeout: '', ttl: '', lowPriority: 'no', webhook: ''},
	check: checkJobForm,
};

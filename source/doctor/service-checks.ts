import {ApiError} from '../api/errors.js';
import {probe, type ProbeAnswer} from '../api/probe.js';
import {checkResult, type CheckResult} from './check.js';
import {restCheck, restEndpoints} from './rest-check.js';

type Service = {readonly apiUrl: string; readonly graphqlUrl: string; readonly restUrl: string; readonly apiKey: string};

/** Each API is read this many times: the latency given is the middle one. */
const samples = 3;
const timeoutMs = 10_000;
/** The service's clock may differ this much (the Date header has whole seconds) before it is worth a word… */
const clockWarnMs = 2000;
/** …and this much before job times and recorded history go wrong in a way that misleads. */
const clockFailMs = 60_000;

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const milliseconds = (ms: number) => `${Math.round(ms)} ms`;

/** What the service answered, by status: every read here must be a 200. */
function answerProblem(answer: ProbeAnswer): string | undefined {
	if (answer.status === 401 || answer.status === 403) {
		return 'auth';
	}

	const errors = (answer.body as {errors?: Array<{message?: unknown}>} | undefined)?.errors;
	if (answer.status === 200 && Array.isArray(errors) && errors.length > 0) {
		return /unauth|forbidden|api key/i.test(String(errors[0]?.message)) ? 'auth' : `GraphQL error: ${String(errors[0]?.message)}`;
	}

	return answer.status === 200 ? undefined : answer.status === 429 ? 'HTTP 429 (rate limited)' : `HTTP ${answer.status}`;
}

type Series = {readonly answers: ProbeAnswer[]; readonly error?: ApiError};

async function readTimes(send: () => Promise<ProbeAnswer>): Promise<Series> {
	const answers: ProbeAnswer[] = [];
	for (let index = 0; index < samples; index++) {
		try {
			// One after another: the latency of one read, not of three at once.
			// eslint-disable-next-line no-await-in-loop
			answers.push(await send());
		} catch (error) {
			if (error instanceof ApiError) {
				return {answers, error};
			}

			throw error;
		}
	}

	return {answers};
}

function apiCheck(id: string, title: string, host: string, series: Series): CheckResult {
	const {answers, error} = series;
	if (error) {
		return checkResult({
			id,
			title,
			status: 'fail',
			found: `${host}: ${error.kind === 'timeout' ? `no answer within ${timeoutMs / 1000} s` : error.message}`,
			fix: 'check the network and any proxy from this host (curl -sI the URL), or the --api-url / --graphql-url given',
		});
	}

	const problems = answers.map(answer => answerProblem(answer)).filter(Boolean);
	const p50 = median(answers.map(answer => answer.ms));
	const figures = {p50Ms: Math.round(p50), reads: answers.length};
	if (problems.includes('auth')) {
		return checkResult({
			id,
			title,
			status: 'fail',
			found: `${host} refused the API key (HTTP ${answers.find(answer => answerProblem(answer) === 'auth')?.status ?? 401})`,
			fix: 'the key is wrong, revoked, or lacks this permission: make a new one in the console (Settings → API Keys) and set it',
			figures,
		});
	}

	if (problems.length > 0) {
		return checkResult({
			id,
			title,
			status: 'warn',
			found: `${host}: ${problems[0]!}`,
			fix: 'read again in a minute; if it persists, check the service status page',
			figures,
		});
	}

	return checkResult({id, title, status: 'ok', found: `${host}: ${answers.length} reads, p50 ${milliseconds(p50)}, key accepted`, figures});
}

function clockCheck(answers: readonly ProbeAnswer[]): CheckResult {
	const offsets = answers.map(answer => answer.clockOffsetMs).filter((offset): offset is number => offset !== undefined);
	if (offsets.length === 0) {
		return checkResult({id: 'clock', title: 'clock', status: 'skip', found: 'the service sent no Date header to compare with'});
	}

	const offset = median(offsets);
	const size = Math.abs(offset);
	const said = size < 1000 ? 'within a second of' : `${(size / 1000).toFixed(size < 10_000 ? 1 : 0)} s ${offset > 0 ? 'behind' : 'ahead of'}`;
	const status = size > clockFailMs ? 'fail' : size > clockWarnMs ? 'warn' : 'ok';
	return checkResult({
		id: 'clock',
		title: 'clock',
		status,
		found: `this host is ${said} the service`,
		...(status === 'ok' ? {} : {fix: 'sync the clock (timedatectl set-ntp true, or chrony/ntpd): job times and recorded history use it'}),
		figures: {offsetMs: Math.round(offset)},
	});
}

/**
Reads each API for real (REST v2: the endpoints, with the budget it states; GraphQL: the account's
id and endpoints, or that it is retired; the job API: the first endpoint's /health), three times
each, one after another: reachability, latency, the key, the clock. Only reads: nothing is written.
*/
export async function serviceChecks(
	service: Service,
	{onEndpoints}: {readonly onEndpoints?: (endpoints: ReadonlyArray<{readonly id: string; readonly name?: string}>) => void} = {},
): Promise<CheckResult[]> {
	const graphqlHost = new URL(service.graphqlUrl).host;
	const apiHost = new URL(service.apiUrl).host;
	const graphql = await readTimes(async () =>
		probe({
			url: service.graphqlUrl,
			apiKey: service.apiKey,
			method: 'POST',
			body: JSON.stringify({query: 'query Doctor { myself { id endpoints { id name } } }'}),
			timeoutMs,
			label: 'GraphQL',
		}),
	);
	const rest = await readTimes(async () =>
		probe({url: `${service.restUrl}/v2/serverless`, apiKey: service.apiKey, method: 'GET', timeoutMs, label: 'REST v2'}),
	);
	const restHost = new URL(service.restUrl).host;
	const restResult = restCheck(restHost, rest, apiCheck('rest-v2', 'REST API v2', restHost, rest));
	const graphqlRetired = graphql.answers.some(answer => answer.status === 410);
	const graphqlResult = graphqlRetired
		? checkResult({
				id: 'graphql',
				title: 'GraphQL API',
				status: restResult.status === 'ok' ? 'ok' : 'fail',
				found: `${graphqlHost}: retired (410 Gone); podtop manages over REST v2, and the serverless discount is no longer published`,
			})
		: apiCheck('graphql', 'GraphQL API', graphqlHost, graphql);
	const endpoints =
		restEndpoints(rest) ??
		(graphql.answers.at(-1)?.body as {data?: {myself?: {endpoints?: Array<{id?: unknown; name?: unknown}>}}} | undefined)?.data?.myself?.endpoints;
	if (Array.isArray(endpoints)) {
		// Service text: what is shown of it passes the sanitiser where it is shown.
		onEndpoints?.(endpoints.flatMap(({id, name}) => (typeof id === 'string' ? [{id, ...(typeof name === 'string' ? {name} : {})}] : [])));
	}

	const endpointId = endpoints?.find(endpoint => typeof endpoint.id === 'string')?.id as string | undefined;
	let jobResult: CheckResult;
	let job: Series = {answers: []};
	if (endpointId === undefined) {
		jobResult = checkResult({
			id: 'job-api',
			title: 'job API',
			status: 'skip',
			found:
				graphqlResult.status === 'ok' || restResult.status === 'ok'
					? 'the account has no endpoint to read /health of'
					: 'not read: neither REST v2 nor GraphQL listed the endpoints',
		});
	} else {
		job = await readTimes(async () =>
			probe({url: `${service.apiUrl}/${encodeURIComponent(endpointId)}/health`, apiKey: service.apiKey, method: 'GET', timeoutMs, label: 'job API'}),
		);
		jobResult = apiCheck('job-api', 'job API', apiHost, job);
	}

	const answers = [...rest.answers, ...graphql.answers, ...job.answers];
	const limited = answers.filter(answer => answer.status === 429).length;
	return [restResult, graphqlResult, jobResult, clockCheck(answers), rateLimitCheck(limited, answers.length)];
}

/** 429s in doctor's own reads (an agent's last hour is said by the agent check). */
function rateLimitCheck(limited: number, reads: number): CheckResult {
	return limited === 0
		? checkResult({id: 'rate-limits', title: '429s', status: 'ok', found: `none in these ${reads} reads`, figures: {rateLimited: 0, reads}})
		: checkResult({
				id: 'rate-limits',
				title: '429s',
				status: 'warn',
				found: `${limited} of these ${reads} reads were rate limited`,
				fix: 'something else on this account is using its limits: another podtop without the agent, or scripts; run one podtop agent per host, or lower --budget',
				figures: {rateLimited: limited, reads},
			});
}

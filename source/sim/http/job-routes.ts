import type {IncomingMessage, ServerResponse} from 'node:http';
import {asyncRetention, syncRetention, type Endpoint} from '../endpoint.js';
import {isTerminal, toStatusBody, type Job} from '../job.js';
import {InvalidRequestError, parseJobRequest, policyBounds} from '../job-request.js';
import {jobOperations, limitGroupOf, publishedLimits, type JobOperation} from '../rate-table.js';
import type {Simulator} from '../simulator.js';
import {readMillis} from './query.js';
import {BodyTooLargeError, readBody} from './read-body.js';
import {sendError, sendJson} from './respond.js';
import {applyFault} from './apply-fault.js';
import {serveCompat} from './compat-route.js';
import {waitForJob} from './wait-for-job.js';

const megabyte = 1024 * 1024;
/** Default hold of `/runsync` and `/status-sync` (real milliseconds). */
const defaultSyncWaitMs = 90_000;
const syncWaitBounds = {min: 1000, max: 300_000} as const;
const streamWaitBounds = {min: 0, max: 300_000} as const;

type Route = {
	readonly methods: readonly string[];
	readonly needsJob: boolean;
	readonly bodyLimit: number;
};

const routes: Record<JobOperation, Route> = {
	run: {methods: ['POST'], needsJob: false, bodyLimit: 10 * megabyte},
	runsync: {methods: ['POST'], needsJob: false, bodyLimit: 20 * megabyte},
	status: {methods: ['GET', 'POST'], needsJob: true, bodyLimit: megabyte},
	'status-sync': {methods: ['GET', 'POST'], needsJob: true, bodyLimit: megabyte},
	stream: {methods: ['GET', 'POST'], needsJob: true, bodyLimit: megabyte},
	compat: {methods: ['GET', 'POST'], needsJob: false, bodyLimit: 10 * megabyte},
	cancel: {methods: ['POST'], needsJob: true, bodyLimit: megabyte},
	retry: {methods: ['POST'], needsJob: true, bodyLimit: megabyte},
	'purge-queue': {methods: ['POST'], needsJob: false, bodyLimit: megabyte},
	health: {methods: ['GET'], needsJob: false, bodyLimit: megabyte},
};

type Context = {
	readonly sim: Simulator;
	readonly endpoint: Endpoint;
	readonly request: IncomingMessage;
	readonly response: ServerResponse;
	readonly url: URL;
	readonly body: string;
	readonly job: Job | undefined;
	/** Aborts when the client goes away or the simulator closes. */
	readonly signal: AbortSignal;
	/** For `/openai/...` (and `/compat/...`): the path under it, `v1/chat/completions`. */
	readonly compatPath: readonly string[];
};

const isOperation = (name: string): name is JobOperation => (jobOperations as readonly string[]).includes(name);

function jobNotFound(response: ServerResponse, jobId: string): void {
	sendError(response, 404, `Job ${jobId} not found or expired`);
}

async function submit(context: Context, sync: boolean): Promise<void> {
	const {endpoint, url, body, response, signal} = context;
	const request = parseJobRequest(body, endpoint.spec.executionTimeoutMs);
	const waitMs = sync ? (readMillis(url, 'wait', syncWaitBounds) ?? defaultSyncWaitMs) : 0;
	const retention = sync ? Math.min(Math.max(waitMs, syncRetention.min), syncRetention.max) : asyncRetention;
	const job = endpoint.submit(request, sync, retention);
	if (!sync) {
		sendJson(response, 200, {id: job.id, status: 'IN_QUEUE'});
		return;
	}

	await waitForJob(job, () => isTerminal(job.status), waitMs, signal);
	sendJson(response, 200, isTerminal(job.status) ? toStatusBody(job) : {id: job.id, status: job.status});
}

const handlers: Record<JobOperation, (context: Context) => Promise<void> | void> = {
	run: async context => submit(context, false),
	runsync: async context => submit(context, true),
	status(context) {
		const job = context.job!;
		const ttl = readMillis(context.url, 'ttl', {min: 0, max: policyBounds.maxTtl});
		if (ttl !== undefined) {
			context.endpoint.shortenLife(job, ttl);
		}

		sendJson(context.response, 200, toStatusBody(job));
	},
	async 'status-sync'(context) {
		const job = context.job!;
		const waitMs = readMillis(context.url, 'wait', syncWaitBounds) ?? defaultSyncWaitMs;
		await waitForJob(job, () => isTerminal(job.status), waitMs, context.signal);
		sendJson(context.response, 200, toStatusBody(job));
	},
	async stream(context) {
		const job = context.job!;
		const waitMs = readMillis(context.url, 'wait', streamWaitBounds) ?? 0;
		await waitForJob(job, () => job.pendingChunks.length > 0 || isTerminal(job.status), waitMs, context.signal);
		const stream = job.pendingChunks;
		job.pendingChunks = [];
		sendJson(context.response, 200, {status: job.status, stream});
	},
	cancel(context) {
		const job = context.job!;
		context.endpoint.cancel(job);
		sendJson(context.response, 200, {id: job.id, status: job.status});
	},
	retry(context) {
		const job = context.job!;
		if (!context.endpoint.retry(job)) {
			sendError(context.response, 400, `Job ${job.id} is ${job.status}; only FAILED or TIMED_OUT jobs can be retried`);
			return;
		}

		sendJson(context.response, 200, {id: job.id, status: 'IN_QUEUE'});
	},
	'purge-queue'(context) {
		sendJson(context.response, 200, {removed: context.endpoint.purgeQueue(), status: 'completed'});
	},
	health(context) {
		sendJson(context.response, 200, context.endpoint.health());
	},
	async compat({sim, endpoint, request, response, body, signal, compatPath}) {
		await serveCompat(endpoint, request.method ?? 'GET', compatPath, body, response, signal, () => sim.clock.now());
	},
};

/**
Serves `/v2/<endpoint_id>/<operation>[/<job_id>]` after authentication: endpoint lookup, method,
rate limits (per key, endpoint and operation group), body limits, then the operation.
*/
export async function handleJobRoute(
	sim: Simulator,
	apiKey: string,
	request: IncomingMessage,
	response: ServerResponse,
	url: URL,
	parts: readonly string[],
	closing: AbortSignal,
): Promise<void> {
	const [endpointId = '', first = '', ...after] = parts;
	const endpoint = sim.endpoints.get(endpointId);
	if (!endpoint) {
		sendError(response, 404, `Endpoint ${endpointId} not found`);
		return;
	}

	// The OpenAI-compatible family: /openai/v1/... (as the workers serve it) or /compat/...; one limit.
	const isCompat = first === 'openai' || first === 'compat';
	const operation = isCompat ? 'compat' : first;
	const compatPath = isCompat ? after : [];
	const [jobId, ...rest] = isCompat ? [] : after;
	if (!isOperation(operation) || rest.length > 0 || routes[operation].needsJob !== (jobId !== undefined)) {
		sendError(response, 404, `No route ${request.method} ${url.pathname}`);
		return;
	}

	const route = routes[operation];
	if (!route.methods.includes(request.method ?? '')) {
		sendError(response, 405, `${request.method} is not allowed on /${operation}; use ${route.methods.join(' or ')}`, {allow: route.methods.join(', ')});
		return;
	}

	const group = limitGroupOf(operation);
	const endStats = sim.stats.begin(endpointId, operation, undefined, group);
	if (await applyFault(sim, operation, request, response, endpointId)) {
		endStats();
		return;
	}

	const admission = sim.limiter.admit(`${apiKey}|${endpointId}|${group}`, publishedLimits[group], endpoint.runningWorkers());
	if (!admission.ok) {
		sim.stats.rateLimited(endpointId, operation, group);
		endStats();
		sendError(response, 429, admission.reason, {'retry-after': String(admission.retryAfterSeconds)});
		return;
	}

	const abort = new AbortController();
	const onGone = () => {
		abort.abort();
	};

	response.once('close', onGone);
	closing.addEventListener('abort', onGone, {once: true});
	try {
		if ((operation === 'run' || operation === 'runsync') && endpoint.isQueueFull()) {
			sim.stats.rateLimited(endpointId, operation, group);
			sendError(response, 429, 'Queue is full', {'retry-after': '10'});
			return;
		}

		const body = request.method === 'POST' ? await readBody(request, route.bodyLimit) : '';
		const job = jobId === undefined ? undefined : endpoint.get(jobId);
		if (jobId !== undefined && !job) {
			jobNotFound(response, jobId);
			return;
		}

		await handlers[operation]({sim, endpoint, request, response, url, body, job, signal: abort.signal, compatPath});
	} catch (error) {
		if (error instanceof BodyTooLargeError) {
			sendError(response, 413, error.message, {connection: 'close'});
		} else if (error instanceof InvalidRequestError) {
			sendError(response, 400, error.message);
		} else {
			throw error;
		}
	} finally {
		closing.removeEventListener('abort', onGone);
		response.off('close', onGone);
		admission.release();
		endStats();
	}
}

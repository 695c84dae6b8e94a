import type {Pools} from './pools.js';
import {requestJson} from './json-request.js';
import type {Health, JobRequest, JobStatusBody, StreamBody} from './job-types.js';

export type CallOptions = {readonly signal?: AbortSignal};
export type WaitOptions = CallOptions & {readonly waitMs?: number};

export type JobApi = {
	readonly run: (endpointId: string, request: JobRequest, options?: CallOptions) => Promise<{id: string; status: string}>;
	readonly runSync: (endpointId: string, request: JobRequest, options?: WaitOptions) => Promise<JobStatusBody>;
	readonly status: (endpointId: string, jobId: string, options?: CallOptions & {readonly ttlMs?: number}) => Promise<JobStatusBody>;
	readonly statusSync: (endpointId: string, jobId: string, options?: WaitOptions) => Promise<JobStatusBody>;
	readonly stream: (endpointId: string, jobId: string, options?: WaitOptions) => Promise<StreamBody>;
	readonly cancel: (endpointId: string, jobId: string, options?: CallOptions) => Promise<{id: string; status: string}>;
	readonly retry: (endpointId: string, jobId: string, options?: CallOptions) => Promise<{id: string; status: string}>;
	readonly purgeQueue: (endpointId: string, options?: CallOptions) => Promise<{removed: number; status: string}>;
	readonly health: (endpointId: string, options?: CallOptions) => Promise<Health>;
};

const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** The seed shows two worker fields, the live service six: missing counters read as 0. */
function normalizeHealth(raw: Partial<Record<'jobs' | 'workers', Record<string, unknown>>>): Health {
	const jobs = raw.jobs ?? {};
	const workers = raw.workers ?? {};
	return {
		jobs: {
			completed: count(jobs.completed),
			failed: count(jobs.failed),
			inProgress: count(jobs.inProgress),
			inQueue: count(jobs.inQueue),
			retried: count(jobs.retried),
		},
		workers: {
			idle: count(workers.idle),
			initializing: count(workers.initializing),
			ready: count(workers.ready),
			running: count(workers.running),
			throttled: count(workers.throttled),
			unhealthy: count(workers.unhealthy),
		},
	};
}

/** `/stream` always carries `stream`, but a client must not crash if it does not. */
function normalizeStream(raw: Partial<StreamBody>): StreamBody {
	return {status: raw.status ?? 'IN_PROGRESS', stream: Array.isArray(raw.stream) ? raw.stream : []};
}

/** Typed functions for every job operation, under `{baseUrl}/<endpoint_id>/…` (default `https://api.runpod.ai/v2`). */
export function createJobApi({baseUrl, apiKey, pools}: {readonly baseUrl: string; readonly apiKey: string; readonly pools: Pools}): JobApi {
	const base = baseUrl.replace(/\/+$/, '');
	const pool = pools.for(base);
	const headers = {authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'application/json', 'user-agent': 'podtop'};
	const call = async <T>(
		method: 'GET' | 'POST',
		endpointId: string,
		operation: string,
		options: {jobId?: string; query?: Record<string, number | undefined>; body?: unknown; signal?: AbortSignal; waitMs?: number} = {},
	) => {
		const url = new URL(`${base}/${encodeURIComponent(endpointId)}/${operation}${options.jobId ? `/${encodeURIComponent(options.jobId)}` : ''}`);
		for (const [name, value] of Object.entries(options.query ?? {})) {
			if (value !== undefined) {
				url.searchParams.set(name, String(value));
			}
		}

		return requestJson<T>({
			pool,
			url,
			method,
			headers,
			body: options.body === undefined ? (method === 'POST' ? '{}' : undefined) : JSON.stringify(options.body),
			signal: options.signal,
			headersTimeoutMs: options.waitMs === undefined ? undefined : options.waitMs + pools.timeouts.headersMs,
			label: `${operation} ${endpointId}${options.jobId ? `/${options.jobId}` : ''}`,
		});
	};

	return {
		run: async (endpointId, request, options = {}) => call('POST', endpointId, 'run', {body: request, signal: options.signal}),
		runSync: async (endpointId, request, options = {}) =>
			call('POST', endpointId, 'runsync', {body: request, signal: options.signal, query: {wait: options.waitMs}, waitMs: options.waitMs ?? 90_000}),
		status: async (endpointId, jobId, options = {}) => call('GET', endpointId, 'status', {jobId, signal: options.signal, query: {ttl: options.ttlMs}}),
		statusSync: async (endpointId, jobId, options = {}) =>
			call('GET', endpointId, 'status-sync', {jobId, signal: options.signal, query: {wait: options.waitMs}, waitMs: options.waitMs ?? 90_000}),
		stream: async (endpointId, jobId, options = {}) =>
			normalizeStream(await call('GET', endpointId, 'stream', {jobId, signal: options.signal, query: {wait: options.waitMs}, waitMs: options.waitMs})),
		cancel: async (endpointId, jobId, options = {}) => call('POST', endpointId, 'cancel', {jobId, signal: options.signal}),
		retry: async (endpointId, jobId, options = {}) => call('POST', endpointId, 'retry', {jobId, signal: options.signal}),
		purgeQueue: async (endpointId, options = {}) => call('POST', endpointId, 'purge-queue', {signal: options.signal}),
		health: async (endpointId, options = {}) => normalizeHealth(await call('GET', endpointId, 'health', {signal: options.signal})),
	};
}

import type {JobPolicy, JobRequest} from '../api/job-types.js';
import {describeJsonError} from '../format/json-error.js';

/** The service's body limits: 10 MB for `/run`, 20 MB for `/runsync`. */
export const bodyLimits = {run: 10 * 1024 * 1024, runsync: 20 * 1024 * 1024} as const;

const day = 24 * 60 * 60 * 1000;
/** The longest `executionTimeout` and `ttl` the service takes: 7 days. */
export const longestPolicyMs = 7 * day;

/** `/runsync?wait=` bounds, in milliseconds. */
export const syncWaitMs = {min: 1000, max: 300_000} as const;

/** Why an `executionTimeout` is refused, or undefined when it is fine. */
export function executionTimeoutProblem(value: number): string | undefined {
	return Number.isInteger(value) && value > 5000 && value <= longestPolicyMs ? undefined : `is in milliseconds, over 5000 and at most 7 days (604800000)`;
}

/** Why a `ttl` is refused, or undefined when it is fine. */
export function ttlProblem(value: number): string | undefined {
	return Number.isInteger(value) && value >= 10_000 && value <= longestPolicyMs ? undefined : 'is in milliseconds, from 10000 to 7 days (604800000)';
}

/** Why a `/runsync` wait is refused, or undefined when it is fine. */
export function syncWaitProblem(value: number): string | undefined {
	return Number.isInteger(value) && value >= syncWaitMs.min && value <= syncWaitMs.max ? undefined : 'is in milliseconds, 1000 to 300000';
}

/** Why a webhook URL is refused (the service calls http or https only), or undefined when it is fine. */
export function webhookProblem(value: string): string | undefined {
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		return 'is not a URL (say https://…)';
	}

	return url.protocol === 'http:' || url.protocol === 'https:' ? undefined : `must be an http or https URL, not ${url.protocol.slice(0, -1)}`;
}

/** A policy from its optional parts; undefined when none is set. */
export function policyOf(parts: {readonly executionTimeout?: number; readonly ttl?: number; readonly lowPriority?: boolean}): JobPolicy | undefined {
	const policy = {
		...(parts.executionTimeout === undefined ? {} : {executionTimeout: parts.executionTimeout}),
		...(parts.ttl === undefined ? {} : {ttl: parts.ttl}),
		...(parts.lowPriority ? {lowPriority: true} : {}),
	};
	return Object.keys(policy).length > 0 ? policy : undefined;
}

/** The body as sent, in bytes. */
export const requestBytes = (request: JobRequest): number => Buffer.byteLength(JSON.stringify(request));

/** Why a body is too big for its route, saying by how much, or undefined when it fits. */
export function bodySizeProblem(bytes: number, sync: boolean): string | undefined {
	const limit = sync ? bodyLimits.runsync : bodyLimits.run;
	if (bytes <= limit) {
		return undefined;
	}

	const route = sync ? '/runsync' : '/run';
	return `the request is ${(bytes / 1024 / 1024).toFixed(1)} MB, over the ${limit / 1024 / 1024} MB limit of ${route}${sync ? '' : ' (runsync allows 20 MB)'}; put large inputs in storage and pass their URLs`;
}

/** Why a text is not a JSON object input, or the object. */
export function parseJobInput(text: string): {readonly input: Record<string, unknown>} | {readonly problem: string} {
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch (error) {
		return {problem: `is not valid JSON (${describeJsonError(text, error)})`};
	}

	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		return {
			problem: `must be a JSON object such as {"prompt": "a red fox"}, not ${Array.isArray(parsed) ? 'an array' : parsed === null ? 'null' : typeof parsed}`,
		};
	}

	return {input: parsed as Record<string, unknown>};
}

const second = 1000;
const day = 24 * 60 * 60 * second;

export type JobPolicy = {
	/** Milliseconds a job may run before it is TIMED_OUT. */
	readonly executionTimeout: number;
	/** Milliseconds the job lives, queue plus execution; past it the job is gone. */
	readonly ttl: number;
	/** Low-priority jobs wait behind the rest and never trigger scaling. */
	readonly lowPriority: boolean;
};

export const policyDefaults = {
	executionTimeout: 600 * second,
	ttl: day,
} as const;

export const policyBounds = {
	minExecutionTimeout: 5 * second,
	maxExecutionTimeout: 7 * day,
	minTtl: 10 * second,
	maxTtl: 7 * day,
} as const;

/** A request the service would reject with 400; the message says what is wrong. */
export class InvalidRequestError extends Error {
	override readonly name = 'InvalidRequestError';
}

export type JobRequest = {
	readonly input: Record<string, unknown>;
	readonly webhook: string | undefined;
	readonly policy: JobPolicy;
};

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readInteger(policy: Record<string, unknown>, name: string): number | undefined {
	const value = policy[name];
	if (value === undefined || value === null) {
		return undefined;
	}

	if (typeof value !== 'number' || !Number.isInteger(value)) {
		throw new InvalidRequestError(`policy.${name} must be an integer number of milliseconds`);
	}

	return value;
}

function parsePolicy(raw: unknown, endpointExecutionTimeout: number | undefined): JobPolicy {
	if (raw !== undefined && raw !== null && !isRecord(raw)) {
		throw new InvalidRequestError('policy must be an object');
	}

	const policy = raw ?? {};
	const executionTimeout = readInteger(policy, 'executionTimeout') ?? endpointExecutionTimeout ?? policyDefaults.executionTimeout;
	if (executionTimeout <= policyBounds.minExecutionTimeout || executionTimeout > policyBounds.maxExecutionTimeout) {
		throw new InvalidRequestError(
			`policy.executionTimeout must be greater than ${policyBounds.minExecutionTimeout} ms and at most ${policyBounds.maxExecutionTimeout} ms (7 days), got ${executionTimeout}`,
		);
	}

	const ttl = readInteger(policy, 'ttl') ?? policyDefaults.ttl;
	if (ttl < policyBounds.minTtl || ttl > policyBounds.maxTtl) {
		throw new InvalidRequestError(`policy.ttl must be between ${policyBounds.minTtl} ms and ${policyBounds.maxTtl} ms (7 days), got ${ttl}`);
	}

	const lowPriority = policy.lowPriority ?? false;
	if (typeof lowPriority !== 'boolean') {
		throw new InvalidRequestError('policy.lowPriority must be a boolean');
	}

	return {executionTimeout, ttl, lowPriority};
}

function parseWebhook(raw: unknown): string | undefined {
	if (raw === undefined || raw === null || raw === '') {
		return undefined;
	}

	if (typeof raw !== 'string') {
		throw new InvalidRequestError('webhook must be a URL string');
	}

	let url: URL;
	try {
		url = new URL(raw);
	} catch {
		throw new InvalidRequestError(`webhook is not a valid URL: ${raw}`);
	}

	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		throw new InvalidRequestError('webhook must be an http or https URL');
	}

	return raw;
}

/**
Parses and validates a `/run` or `/runsync` body. `s3Config` is accepted and dropped: it must never
appear in a response.
*/
export function parseJobRequest(body: string, endpointExecutionTimeout?: number): JobRequest {
	let parsed: unknown;
	try {
		parsed = JSON.parse(body);
	} catch {
		throw new InvalidRequestError('Request body is not valid JSON');
	}

	if (!isRecord(parsed)) {
		throw new InvalidRequestError('Request body must be a JSON object');
	}

	if (!isRecord(parsed.input)) {
		throw new InvalidRequestError('Request body must contain an "input" object');
	}

	if (parsed.s3Config !== undefined && parsed.s3Config !== null && !isRecord(parsed.s3Config)) {
		throw new InvalidRequestError('s3Config must be an object');
	}

	return {
		input: parsed.input,
		webhook: parseWebhook(parsed.webhook),
		policy: parsePolicy(parsed.policy, endpointExecutionTimeout),
	};
}

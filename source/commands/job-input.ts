import {readFileSync} from 'node:fs';
import {UsageError} from '../lib/usage-error.js';

/** The service's body limits: 10 MB for `/run`, 20 MB for `/runsync`. */
export const bodyLimits = {run: 10 * 1024 * 1024, runsync: 20 * 1024 * 1024} as const;

const day = 24 * 60 * 60 * 1000;

/** `--input JSON`, `--input @file` or `--input -` (standard input), as the job's input object. */
export function readJobInput(value: string | undefined, readStdin: () => string = () => readFileSync(0, 'utf8')): Record<string, unknown> {
	if (value === undefined) {
		throw new UsageError('give the job its input: --input \'{"prompt": "…"}\', --input @file.json, or --input - to read it from standard input');
	}

	let text: string;
	let where = '--input';
	if (value === '-') {
		text = readStdin();
		where = 'the input on standard input';
	} else if (value.startsWith('@')) {
		try {
			text = readFileSync(value.slice(1), 'utf8');
		} catch (error) {
			throw new UsageError(`cannot read ${value.slice(1)}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
		}

		where = value.slice(1);
	} else {
		text = value;
	}

	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch (error) {
		throw new UsageError(
			`${where} is not valid JSON (${error instanceof Error ? error.message : String(error)}); the input is a JSON object such as {"prompt": "a red fox"}`,
		);
	}

	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		throw new UsageError(`${where} must be a JSON object such as {"prompt": "a red fox"}, not ${Array.isArray(parsed) ? 'an array' : typeof parsed}`);
	}

	return parsed as Record<string, unknown>;
}

type PolicyFlags = {readonly executionTimeout?: number; readonly ttl?: number; readonly lowPriority: boolean};

/** The job's `policy`, checked against the service's bounds before anything is sent. */
export function jobPolicy({executionTimeout, ttl, lowPriority}: PolicyFlags): {executionTimeout?: number; ttl?: number; lowPriority?: boolean} | undefined {
	if (executionTimeout !== undefined && !(Number.isInteger(executionTimeout) && executionTimeout > 5000 && executionTimeout <= 7 * day)) {
		throw new UsageError(`--execution-timeout is in milliseconds, over 5000 and at most 7 days (604800000); got ${executionTimeout}`);
	}

	if (ttl !== undefined && !(Number.isInteger(ttl) && ttl >= 10_000 && ttl <= 7 * day)) {
		throw new UsageError(`--ttl is in milliseconds, from 10000 to 7 days (604800000); got ${ttl}`);
	}

	const policy = {...(executionTimeout === undefined ? {} : {executionTimeout}), ...(ttl === undefined ? {} : {ttl}), ...(lowPriority ? {lowPriority} : {})};
	return Object.keys(policy).length > 0 ? policy : undefined;
}

/** A webhook the service can call: an http or https URL. */
export function webhookUrl(value: string | undefined): string | undefined {
	if (value === undefined) {
		return undefined;
	}

	let url: URL;
	try {
		url = new URL(value);
	} catch {
		throw new UsageError(`--webhook is not a URL: ${value}`);
	}

	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		throw new UsageError(`--webhook must be an http or https URL, got ${url.protocol.slice(0, -1)}`);
	}

	return value;
}

/** Refuses a body over the service's limit for the route, saying by how much. */
export function checkBodySize(body: unknown, sync: boolean): number {
	const bytes = Buffer.byteLength(JSON.stringify(body));
	const limit = sync ? bodyLimits.runsync : bodyLimits.run;
	if (bytes > limit) {
		throw new UsageError(
			`the request is ${(bytes / 1024 / 1024).toFixed(1)} MB, over the ${limit / 1024 / 1024} MB limit of /${sync ? 'runsync' : 'run'}${sync ? '' : ' (--sync allows 20 MB)'}; put large inputs in storage and pass their URLs`,
		);
	}

	return bytes;
}

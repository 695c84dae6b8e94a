import {readFileSync} from 'node:fs';
import type {JobRequest} from '../api/job-types.js';
import {UsageError} from '../lib/usage-error.js';
import {bodySizeProblem, executionTimeoutProblem, parseJobInput, policyOf, requestBytes, ttlProblem, webhookProblem} from '../requests/job-request.js';

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

	const parsed = parseJobInput(text);
	if ('problem' in parsed) {
		throw new UsageError(`${where} ${parsed.problem}; the input is a JSON object such as {"prompt": "a red fox"}`);
	}

	return parsed.input;
}

type PolicyFlags = {readonly executionTimeout?: number; readonly ttl?: number; readonly lowPriority: boolean};

/** The job's `policy`, checked against the service's bounds before anything is sent. */
export function jobPolicy(flags: PolicyFlags): JobRequest['policy'] {
	const timeoutProblem = flags.executionTimeout === undefined ? undefined : executionTimeoutProblem(flags.executionTimeout);
	if (timeoutProblem) {
		throw new UsageError(`--execution-timeout ${timeoutProblem}; got ${flags.executionTimeout}`);
	}

	const ttlRefused = flags.ttl === undefined ? undefined : ttlProblem(flags.ttl);
	if (ttlRefused) {
		throw new UsageError(`--ttl ${ttlRefused}; got ${flags.ttl}`);
	}

	return policyOf(flags);
}

/** A webhook the service can call: an http or https URL. */
export function webhookUrl(value: string | undefined): string | undefined {
	const problem = value === undefined ? undefined : webhookProblem(value);
	if (problem) {
		throw new UsageError(`--webhook ${problem}; got ${value}`);
	}

	return value;
}

/** Refuses a body over the service's limit for the route, saying by how much. */
export function checkBodySize(request: JobRequest, sync: boolean): number {
	const bytes = requestBytes(request);
	const problem = bodySizeProblem(bytes, sync);
	if (problem) {
		throw new UsageError(problem.replace('(runsync allows', '(--sync allows'));
	}

	return bytes;
}

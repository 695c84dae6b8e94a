import {readFileSync} from 'node:fs';
import type {JobRequest} from '../api/job-types.js';
import {UsageError} from '../lib/usage-error.js';
import {invalidUtf8Offset} from '../lib/utf8.js';
import {bodySizeProblem, executionTimeoutProblem, parseJobInput, policyOf, requestBytes, ttlProblem, webhookProblem} from '../requests/job-request.js';

/**
Text read from a file or standard input, refused when it is not UTF-8: decoding would replace each bad
byte with U+FFFD and send an input nobody wrote, so the byte is named instead.
*/
function utf8Text(bytes: Uint8Array, where: string): string {
	const offset = invalidUtf8Offset(bytes);
	if (offset !== -1) {
		throw new UsageError(
			`${where} is not valid UTF-8: byte ${offset} (0x${bytes[offset]!.toString(16).padStart(2, '0')}) starts no character; save it as UTF-8 (iconv -t UTF-8) and try again`,
		);
	}

	return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** `--input JSON`, `--input @file` or `--input -` (standard input), as the job's input object. Bytes that are not UTF-8 are refused. */
export function readJobInput(value: string | undefined, readStdin: () => Uint8Array = () => readFileSync(0)): Record<string, unknown> {
	if (value === undefined) {
		throw new UsageError('give the job its input: --input \'{"prompt": "…"}\', --input @file.json, or --input - to read it from standard input');
	}

	let text: string;
	let where = '--input';
	if (value === '-') {
		where = 'the input on standard input';
		text = utf8Text(readStdin(), where);
	} else if (value.startsWith('@')) {
		let bytes: Uint8Array;
		try {
			bytes = readFileSync(value.slice(1));
		} catch (error) {
			throw new UsageError(`cannot read ${value.slice(1)}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
		}

		where = value.slice(1);
		text = utf8Text(bytes, where);
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

import {inertJson, sanitizeText} from '../format/sanitize.js';
import type {TrackedJob} from '../store/types.js';
import {exitCodes} from './exit-code.js';

/** A finished job's output for people: text as it is, anything else as indented JSON. */
export function outputText(output: unknown): string {
	return typeof output === 'string' ? output : JSON.stringify(output, undefined, 2);
}

/** The final status object `--json` prints: id, status, times, and the output or the error. */
export const finalStatus = (job: TrackedJob) => ({
	id: job.id,
	status: job.status,
	delayTime: job.delayTime,
	executionTime: job.executionTime,
	...(job.error === undefined ? {output: job.output} : {error: job.error}),
});

/**
How `run` and `job` end once the job has: with `--json` the final status as one line; otherwise the
output when nothing was streamed, and the error on stderr. Exit 0 for COMPLETED, 1 otherwise.
*/
export function finishJob(job: TrackedJob, streamed: boolean, json: boolean): void {
	if (json) {
		process.stdout.write(`${inertJson(finalStatus(job))}\n`);
	} else if (!streamed && job.output !== undefined && job.output !== null) {
		process.stdout.write(`${sanitizeText(outputText(job.output))}\n`);
	}

	if (job.status === 'COMPLETED') {
		process.exitCode = exitCodes.ok;
	} else {
		process.stderr.write(`podtop: job ${sanitizeText(job.status)}${job.error ? `: ${sanitizeText(job.error)}` : ''}\n`);
		process.exitCode = exitCodes.failed;
	}
}

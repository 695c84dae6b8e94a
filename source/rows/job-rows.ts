import {formatMillis} from '../format/duration.js';
import {formatCost} from '../format/numbers.js';
import {wrapLines} from '../format/fit.js';
import {sanitizeLine, sanitizeText} from '../format/sanitize.js';
import type {TrackedJob} from '../store/types.js';
import type {JobStatusFilter} from '../view-state/view-state.js';
import type {Column, Row} from './row.js';

export const jobColumns: readonly Column[] = [
	{title: 'JOB', width: 20, flex: true},
	{title: 'STATUS', width: 11},
	{title: 'DELAY', width: 7, align: 'right'},
	{title: 'EXEC', width: 7, align: 'right'},
	{title: 'CHUNKS', width: 6, align: 'right'},
	{title: 'ERROR', width: 40},
];

const terminalStatuses = new Set(['COMPLETED', 'FAILED', 'TIMED_OUT', 'CANCELLED']);

/** Whether a job's status is one the filter lets through: `active` is queued or running, `failed` includes TIMED_OUT. */
export function matchesStatusFilter(status: string, filter: JobStatusFilter): boolean {
	switch (filter) {
		case 'all': {
			return true;
		}

		case 'active': {
			return !terminalStatuses.has(status);
		}

		case 'completed': {
			return status === 'COMPLETED';
		}

		case 'failed': {
			return status === 'FAILED' || status === 'TIMED_OUT';
		}

		case 'cancelled': {
			return status === 'CANCELLED';
		}
	}
}

/** The jobs podtop tracks on one endpoint, newest first. */
export function jobRows(jobs: readonly TrackedJob[]): Row[] {
	return [...jobs]
		.sort((a, b) => b.trackedAt - a.trackedAt)
		.map(job => ({
			key: job.key,
			cells: [
				sanitizeLine(job.id),
				sanitizeLine(job.status),
				formatMillis(job.delayTime),
				formatMillis(job.executionTime),
				String(job.chunkCount),
				sanitizeLine(job.error ?? job.lastError ?? ''),
			],
			tone: job.status === 'FAILED' || job.status === 'TIMED_OUT' ? 'bad' : job.status === 'COMPLETED' ? 'good' : undefined,
		}));
}

/** An image model's answer said first: where the image is and what it cost. */
function imageLines(output: unknown): string {
	if (typeof output !== 'object' || output === null || !('image_url' in output) || typeof output.image_url !== 'string') {
		return '';
	}

	const cost = 'cost' in output && typeof output.cost === 'number' ? `billed ${formatCost(output.cost)}\n` : '';
	return `image ${output.image_url}\n${cost}\n`;
}

/** A job's output as wrapped, sanitised lines: streamed text, else the final output (pretty JSON) or error. */
export function jobLines(job: TrackedJob, width: number): string[] {
	let {text} = job;
	if (!text && job.output !== undefined && job.output !== null) {
		text = `${imageLines(job.output)}${typeof job.output === 'string' ? job.output : JSON.stringify(job.output, undefined, 2)}`;
	}

	if (job.error) {
		text = `${text}${text ? '\n' : ''}error: ${job.error}`;
	}

	return text ? wrapLines(sanitizeText(text), Math.max(10, width)) : [];
}

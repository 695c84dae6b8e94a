import {formatMillis} from '../format/duration.js';
import {formatCost} from '../format/numbers.js';
import {findImage, type ImageSource} from '../images/find-image.js';
import {wrapLines} from '../format/fit.js';
import {sanitizeLine, sanitizeText} from '../format/sanitize.js';
import type {TrackedJob} from '../store/types.js';
import type {JobStatusFilter} from '../view-state/view-state.js';
import type {Column, Row} from './row.js';

/** How the job view's body is shared: a box for the picture (its last row the image's line) above the text. */
export type JobBody = {
	readonly lines: readonly string[];
	readonly image: ImageSource | undefined;
	/** 0 without an image; 1 for the image's line alone; more with a picture above it. */
	readonly imageRows: number;
	readonly textRows: number;
};

/** A picture narrower in height than this many rows shows nothing worth seeing: the line alone then. */
const leastPictureRows = 4;

/**
Splits the job view's body (`rows` high) between the picture and the text: the text keeps up to a
quarter of it (at least two lines, never more than it has), the picture the rest. Without pictures
(`--ascii`, no colour) the image is its one line.
*/
export function splitJobBody(lines: readonly string[], image: ImageSource | undefined, rows: number, pictures: boolean): JobBody {
	if (!image) {
		return {lines, image, imageRows: 0, textRows: rows};
	}

	const text = Math.min(lines.length, Math.max(2, Math.floor(rows / 4)));
	const imageRows = pictures && rows - text >= leastPictureRows + 1 ? rows - text : Math.min(1, rows);
	return {lines, image, imageRows, textRows: Math.max(0, rows - imageRows)};
}

export const jobColumns: readonly Column[] = [
	{title: 'JOB', width: 20, flex: true},
	{title: 'STATUS', width: 11},
	{title: 'DELAY', width: 7, align: 'right'},
	{title: 'EXEC', width: 7, align: 'right'},
	{title: 'CHUNKS', width: 6, align: 'right'},
	{title: 'ERROR', width: 40},
];

const terminalStatuses = new Set(['COMPLETED', 'FAILED', 'TIMED_OUT', 'CANCELLED']);

/** How an ended job ended, in words (`cancelled`, `timed out`); undefined while it has not. */
export function jobEnding(status: string): string | undefined {
	return terminalStatuses.has(status) ? status.toLowerCase().replace('_', ' ') : undefined;
}

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

/** The picture a finished job's output holds, if any (its link or its bytes). */
export function jobImage(job: TrackedJob | undefined): ImageSource | undefined {
	return job?.status === 'COMPLETED' ? findImage(job.output) : undefined;
}

/** What an image model billed, said before its output (the picture's own line is drawn above it). */
function costLine(output: unknown): string {
	return typeof output === 'object' && output !== null && 'cost' in output && typeof output.cost === 'number' ? `billed ${formatCost(output.cost)}\n\n` : '';
}

/** A job's output as wrapped, sanitised lines: streamed text, else the final output (pretty JSON) or error. */
export function jobLines(job: TrackedJob, width: number): string[] {
	let {text} = job;
	if (!text && job.output !== undefined && job.output !== null) {
		text = `${jobImage(job) ? costLine(job.output) : ''}${typeof job.output === 'string' ? job.output : JSON.stringify(job.output, undefined, 2)}`;
	}

	if (job.error) {
		text = `${text}${text ? '\n' : ''}error: ${job.error}`;
	}

	return text ? wrapLines(sanitizeText(text), Math.max(10, width)) : [];
}

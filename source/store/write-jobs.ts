import type {ApiErrorKind} from '../api/errors.js';
import {type JobStatusBody, type StreamChunk, isTerminalStatus} from '../api/job-types.js';
import {chunkText} from '../format/stream-text.js';
import {jobKey} from './job-key.js';
import type {GetState, SetState} from './state.js';
import type {TrackedJob} from './types.js';

export const trackedJobLimit = 10_000;
/** Characters of output text kept for a followed job (its tail)… */
export const textLimit = 256 * 1024;
/** …and once nobody follows it any more, so 10,000 tracked jobs stay small. */
export const unfollowedTextLimit = 16 * 1024;

/**
Keeps the last `limit` characters, trimming only once the text is a quarter over: appending to a
string is cheap, cutting it copies it, so cutting on every chunk would churn memory.
*/
const tail = (text: string, limit: number) => (text.length > limit * 1.25 ? text.slice(text.length - limit) : text);

export type JobWrites = {
	/** `submitted`: this client just submitted it (a 404 for a moment is the job not known yet, not gone). */
	readonly trackJob: (endpointId: string, jobId: string, options?: {follow?: boolean; at?: number; via?: 'compat'; submitted?: boolean}) => string;
	readonly untrackJob: (key: string) => void;
	readonly setFollow: (key: string, follow: boolean) => void;
	readonly updateJob: (key: string, body: JobStatusBody, at: number) => void;
	readonly appendStream: (key: string, status: string, chunks: readonly StreamChunk[], at: number) => void;
	readonly setJobError: (key: string, error: string, kind: ApiErrorKind) => void;
	/** The service does not know a job this client just submitted yet: it is starting. */
	readonly setJobStarting: (key: string) => void;
};

/** Back in the queue after it ran or ended (a retry): a new attempt, which shows only its own figures. */
const isNewAttempt = (job: TrackedJob, status: string) => status === 'IN_QUEUE' && (job.status === 'IN_PROGRESS' || isTerminalStatus(job.status));

/** A job as its new attempt starts: the times, worker, error, output, metrics and text of the attempt before are gone. */
function newAttempt(job: TrackedJob): TrackedJob {
	const {delayTime, executionTime, workerId, error, output, metrics, streamEnded, ...kept} = job;
	return {...kept, chunkCount: 0, text: ''};
}

/** Over the limit: drop the oldest finished, unfollowed jobs first, then the oldest of any. Returns the keys dropped. */
function evict(byKey: Map<string, TrackedJob>): string[] {
	const dropped: string[] = [];
	for (const [key, job] of byKey) {
		if (byKey.size <= trackedJobLimit) {
			return dropped;
		}

		if (isTerminalStatus(job.status) && !job.follow) {
			byKey.delete(key);
			dropped.push(key);
		}
	}

	for (const key of byKey.keys()) {
		if (byKey.size <= trackedJobLimit) {
			break;
		}

		byKey.delete(key);
		dropped.push(key);
	}

	return dropped;
}

/** `byKey` is the map the store's `jobs.byKey` holds: only this writer changes it, in place. */
export function jobWrites(set: SetState, get: GetState, byKey: Map<string, TrackedJob>): JobWrites {
	const publish = (changed: string[]) => {
		const {jobs} = get();
		set({jobs: {byKey, revision: jobs.revision + 1, changed}});
	};

	const patch = (key: string, change: (job: TrackedJob) => TrackedJob) => {
		const job = byKey.get(key);
		if (!job) {
			return;
		}

		const next = change(job);
		if (next !== job) {
			byKey.set(key, next);
			publish([key]);
		}
	};

	return {
		trackJob(endpointId, jobId, {follow = false, at = Date.now(), via, submitted = false} = {}) {
			const key = jobKey(endpointId, jobId);
			if (byKey.has(key)) {
				if (follow) {
					patch(key, job => (job.follow ? job : {...job, follow}));
				}

				return key;
			}

			byKey.set(key, {
				key,
				endpointId,
				id: jobId,
				status: 'UNKNOWN',
				trackedAt: at,
				updatedAt: at,
				follow,
				chunkCount: 0,
				text: '',
				...(via ? {via} : {}),
				...(submitted ? {submittedAt: at} : {}),
			});
			publish([key, ...evict(byKey)]);
			return key;
		},
		untrackJob(key) {
			if (byKey.delete(key)) {
				publish([key]);
			}
		},
		setFollow(key, follow) {
			patch(key, job =>
				job.follow === follow
					? job
					: {...job, follow, text: follow || job.text.length <= unfollowedTextLimit ? job.text : job.text.slice(job.text.length - unfollowedTextLimit)},
			);
		},
		updateJob(key, body, at) {
			patch(key, tracked => {
				const job = isNewAttempt(tracked, body.status) ? newAttempt(tracked) : tracked;
				const same =
					body.status === job.status &&
					body.delayTime === job.delayTime &&
					body.executionTime === job.executionTime &&
					body.workerId === job.workerId &&
					body.error === job.error &&
					body.output === job.output &&
					job.lastError === undefined &&
					job.starting === undefined;
				return same
					? job
					: {
							...job,
							status: body.status,
							delayTime: body.delayTime,
							executionTime: body.executionTime,
							workerId: body.workerId,
							error: body.error,
							output: body.output,
							lastError: undefined,
							lastErrorKind: undefined,
							starting: undefined,
							updatedAt: at,
						};
			});
		},
		appendStream(key, streamStatus, chunks, at) {
			patch(key, tracked => {
				const job = isNewAttempt(tracked, streamStatus) ? newAttempt(tracked) : tracked;
				// A terminal state comes with its /status answer (output, error, times), never from
				// the stream alone: a follower must not see FAILED before it can see why.
				const status = isTerminalStatus(streamStatus) && !isTerminalStatus(job.status) ? job.status : streamStatus;
				const streamEnded = job.streamEnded === true || isTerminalStatus(streamStatus);
				if (chunks.length === 0 && status === job.status && streamEnded === (job.streamEnded === true) && job.starting === undefined) {
					return job;
				}

				const text = `${job.text}${chunks.map(chunk => chunkText(chunk.output)).join('')}`;
				return {
					...job,
					status,
					updatedAt: at,
					...(streamEnded ? {streamEnded} : {}),
					chunkCount: job.chunkCount + chunks.length,
					lastError: undefined,
					lastErrorKind: undefined,
					starting: undefined,
					text: tail(text, job.follow ? textLimit : unfollowedTextLimit),
					metrics: [...chunks].reverse().find(chunk => chunk.metrics)?.metrics ?? job.metrics,
				};
			});
		},
		setJobError(key, error, kind) {
			patch(key, job =>
				job.lastError === error && job.lastErrorKind === kind && job.starting === undefined
					? job
					: {...job, lastError: error, lastErrorKind: kind, starting: undefined},
			);
		},
		setJobStarting(key) {
			patch(key, job => (job.starting ? job : {...job, starting: true, lastError: undefined, lastErrorKind: undefined}));
		},
	};
}

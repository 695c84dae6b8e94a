import type {JobStatusBody, StreamChunk} from '../api/job-types.js';
import {isTerminalStatus} from '../api/job-types.js';
import {chunkText} from '../format/stream-text.js';
import type {GetState, SetState} from './state.js';
import type {TrackedJob} from './types.js';

export const trackedJobLimit = 10_000;
export const chunkLimit = 200;
/** Characters of output text kept per job (its tail). */
export const textLimit = 256 * 1024;

export type JobActions = {
	readonly trackJob: (endpointId: string, jobId: string, options?: {follow?: boolean; at?: number}) => string;
	readonly untrackJob: (key: string) => void;
	readonly setFollow: (key: string, follow: boolean) => void;
	readonly updateJob: (key: string, body: JobStatusBody, at: number) => void;
	readonly appendStream: (key: string, status: string, chunks: readonly StreamChunk[], at: number) => void;
	readonly setJobError: (key: string, error: string | undefined) => void;
};

export const jobKey = (endpointId: string, jobId: string) => `${endpointId}/${jobId}`;

/** Drops the oldest finished jobs (then the oldest of any) once over the limit. */
function evict(byKey: Record<string, TrackedJob>, order: string[]): string[] {
	if (order.length <= trackedJobLimit) {
		return order;
	}

	const excess = order.length - trackedJobLimit;
	const doomed = new Set(order.filter(key => isTerminalStatus(byKey[key]!.status) && !byKey[key]!.follow).slice(0, excess));
	for (const key of order) {
		if (doomed.size >= excess) {
			break;
		}

		doomed.add(key);
	}

	for (const key of doomed) {
		delete byKey[key];
	}

	return order.filter(key => !doomed.has(key));
}

export function jobActions(set: SetState, get: GetState): JobActions {
	const patch = (key: string, change: (job: TrackedJob) => TrackedJob | undefined) => {
		const {jobs} = get();
		const job = jobs.byKey[key];
		const next = job && change(job);
		if (job && next && next !== job) {
			set({jobs: {...jobs, byKey: {...jobs.byKey, [key]: next}}});
		}
	};

	return {
		trackJob(endpointId, jobId, {follow = false, at = Date.now()} = {}) {
			const key = jobKey(endpointId, jobId);
			const {jobs} = get();
			const existing = jobs.byKey[key];
			if (existing) {
				if (follow && !existing.follow) {
					patch(key, job => ({...job, follow}));
				}

				return key;
			}

			const byKey = {...jobs.byKey, [key]: {key, endpointId, id: jobId, status: 'UNKNOWN', trackedAt: at, updatedAt: at, follow, chunks: [], chunkCount: 0, text: ''}};
			const order = evict(byKey, [...jobs.order, key]);
			set({jobs: {byKey, order}});
			return key;
		},
		untrackJob(key) {
			const {jobs} = get();
			if (!jobs.byKey[key]) {
				return;
			}

			const byKey = {...jobs.byKey};
			delete byKey[key];
			set({jobs: {byKey, order: jobs.order.filter(candidate => candidate !== key)}});
		},
		setFollow: (key, follow) => patch(key, job => (job.follow === follow ? job : {...job, follow})),
		updateJob(key, body, at) {
			patch(key, job => {
				const next: TrackedJob = {
					...job,
					status: body.status,
					delayTime: body.delayTime,
					executionTime: body.executionTime,
					workerId: body.workerId,
					error: body.error,
					output: body.output,
					lastError: undefined,
				};
				const same = next.status === job.status && next.delayTime === job.delayTime && next.executionTime === job.executionTime && next.workerId === job.workerId && next.error === job.error && next.output === job.output && job.lastError === undefined;
				return same ? job : {...next, updatedAt: at};
			});
		},
		appendStream(key, status, chunks, at) {
			patch(key, job => {
				if (chunks.length === 0 && status === job.status) {
					return job;
				}

				const added = chunks.map(chunk => chunkText(chunk.output)).join('');
				const text = `${job.text}${added}`;
				const metrics = [...chunks].reverse().find(chunk => chunk.metrics)?.metrics ?? job.metrics;
				return {
					...job,
					status,
					updatedAt: at,
					chunks: [...job.chunks, ...chunks].slice(-chunkLimit),
					chunkCount: job.chunkCount + chunks.length,
					text: text.length > textLimit ? text.slice(text.length - textLimit) : text,
					metrics,
				};
			});
		},
		setJobError: (key, error) => patch(key, job => (job.lastError === error ? job : {...job, lastError: error})),
	};
}

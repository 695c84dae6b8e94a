import {ApiError, describeError} from '../api/errors.js';
import {isTerminalStatus, type StreamChunk} from '../api/job-types.js';
import type {PodtopStore, StoreWrites} from '../store/create-store.js';
import type {TrackedJob} from '../store/types.js';
import type {Cadence} from './cadence.js';
import {createLoop, type Loop} from './loop.js';
import type {ScheduledApi} from './scheduled-api.js';
import type {Priority} from './scheduler.js';

/** Receives a followed job's stream chunks as they arrive, each exactly once (the store keeps only a tail). */
export type ChunkListener = (chunks: readonly StreamChunk[]) => void;

const errorKind = (error: unknown) => (error instanceof ApiError ? error.kind : 'network');

/**
The tracked jobs' loop: each polled by its state (a followed one by its stream), until it ends.
`pollJob` polls one now (after a write); `listen` hears a job's new stream chunks.
*/
export function createJobsLoop({
	store,
	writes,
	api,
	cadence,
	now,
}: {
	readonly store: PodtopStore;
	readonly writes: StoreWrites;
	readonly api: ScheduledApi;
	readonly cadence: Cadence;
	readonly now: () => number;
}): {
	readonly loop: Loop;
	readonly pollJob: (job: TrackedJob) => Promise<void>;
	readonly listen: (jobKey: string, listener: ChunkListener) => () => void;
} {
	const lastPolled = new Map<string, number>();
	/** Ended followed jobs whose stream has had its one last read (tried once, whatever it answered). */
	const drained = new Set<string>();
	const listeners = new Map<string, Set<ChunkListener>>();
	/** `<job key> <route>`: the routes that have answered for a job; a 404 from one of them means it is gone. */
	const known = new Set<string>();

	/**
	A 404 from a route that has never answered for a job this client submitted moments ago: the job is
	not known there yet (/stream lags /run), so it is still starting.
	*/
	const starting = (job: TrackedJob, route: string, error: unknown) =>
		error instanceof ApiError &&
		error.kind === 'not-found' &&
		job.submittedAt !== undefined &&
		!known.has(`${job.key} ${route}`) &&
		now() - job.submittedAt < cadence.jobStartGraceMs;

	const pollJob = async (job: TrackedJob) => {
		// A chat is its answer's stream: the service has no job by its id to poll.
		if (job.via === 'compat') {
			return;
		}

		lastPolled.set(job.key, now());
		let route = 'stream';
		const jobPriority: Priority = job.follow ? 'visible' : 'background';
		try {
			if (job.follow && job.status !== 'UNKNOWN') {
				const body = await api.stream(job.endpointId, job.id, jobPriority);
				known.add(`${job.key} stream`);
				if (body.stream.length > 0) {
					for (const listener of listeners.get(job.key) ?? []) {
						listener(body.stream);
					}
				}

				writes.appendStream(job.key, body.status, body.stream, now());
				// Ended: its /status answer brings the output and times, unless it already has (read once more only to drain the stream).
				if (!isTerminalStatus(body.status) || isTerminalStatus(job.status)) {
					return;
				}
			}

			route = 'status';
			writes.updateJob(job.key, await api.status(job.endpointId, job.id, jobPriority), now());
			known.add(`${job.key} status`);
		} catch (error) {
			if (starting(job, route, error)) {
				writes.setJobStarting(job.key);
				return;
			}

			writes.setJobError(job.key, describeError(error), errorKind(error));
		}
	};

	const loop = createLoop(
		async () => {
			const {byKey} = store.getState().jobs;
			for (const key of lastPolled.keys()) {
				if (!byKey.has(key)) {
					lastPolled.delete(key);
				}
			}

			for (const key of drained) {
				if (!byKey.has(key)) {
					drained.delete(key);
				}
			}

			for (const routeKey of known) {
				if (!byKey.has(routeKey.slice(0, routeKey.lastIndexOf(' ')))) {
					known.delete(routeKey);
				}
			}

			const due = [...byKey.values()].filter(job => {
				if (job.via === 'compat') {
					return false;
				}

				if (isTerminalStatus(job.status)) {
					// A followed job seen ended by its /status (a write's re-poll, a fast job) before its
					// stream was read: its stream is read once more, so its last chunks are not lost.
					if (!job.follow || job.streamEnded || drained.has(job.key)) {
						return false;
					}

					drained.add(job.key);
					return true;
				}

				// Running again (a retry): when this attempt ends, its stream is read to its end too.
				drained.delete(job.key);

				const every = job.follow
					? cadence.streamMs
					: job.status === 'IN_PROGRESS'
						? cadence.jobInProgressMs
						: job.status === 'IN_QUEUE'
							? cadence.jobInQueueMs
							: cadence.jobUnknownMs;
				return now() - (lastPolled.get(job.key) ?? 0) >= every;
			});
			await Promise.allSettled(due.map(pollJob));
		},
		() => cadence.jobsTickMs,
	);

	return {
		loop,
		pollJob,
		listen(jobKey, listener) {
			const set = listeners.get(jobKey) ?? new Set();
			set.add(listener);
			listeners.set(jobKey, set);
			return () => {
				set.delete(listener);
				if (set.size === 0) {
					listeners.delete(jobKey);
				}
			};
		},
	};
}

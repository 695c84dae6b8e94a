import type {ApiErrorKind} from '../api/errors.js';
import {isTerminalStatus} from '../api/job-types.js';
import type {Engine} from '../engine/create-engine.js';
import {chunkText} from '../format/stream-text.js';
import {jobKey} from '../store/job-key.js';
import type {TrackedJob} from '../store/types.js';

/** A job that cannot be followed; `kind` picks the exit status. The message is already described. */
export class FollowError extends Error {
	override readonly name = 'FollowError';
	readonly kind: ApiErrorKind;

	constructor(kind: ApiErrorKind, message: string) {
		super(message);
		this.kind = kind;
	}
}

/** Poll failures that end a follow at once: the service said no. */
const fatalKinds = new Set(['auth', 'not-found', 'invalid']);
/** Failures of the connection end a follow only before the job was ever read, or once they last this long. */
const transientKinds = new Set(['network', 'timeout']);
export const followGiveUpMs = 20_000;
/** How long an ended job's last stream read may take before the follow ends without it. */
const drainWaitMs = 5000;

/**
Follows one job through the engine's pollers like `tail -f`: each new stream chunk's text goes to
`write` once, as it arrives; resolves with the job once it ends (or when `signal` aborts), rejects
with the poll's error when the job cannot be followed (no such job, bad key, no service).
*/
export async function followJob(
	engine: Engine,
	endpointId: string,
	jobId: string,
	write: (text: string) => void,
	signal?: AbortSignal,
): Promise<{job: TrackedJob; streamed: boolean}> {
	const key = jobKey(endpointId, jobId);
	let streamed = false;
	/** When the current run of connection failures began (a dropped or cut answer mid-follow is survived). */
	let failingSince: number | undefined;
	/** When the job was first seen ended (its stream may still be read once more). */
	let endedAt: number | undefined;
	const unfollow = engine.follow(endpointId, jobId, chunks => {
		const text = chunks.map(chunk => chunkText(chunk.output)).join('');
		if (text) {
			streamed = true;
			write(text);
		}
	});
	try {
		return await new Promise((resolve, reject) => {
			const check = () => {
				const job = engine.store.getState().jobs.byKey.get(key);
				if (!job) {
					return false;
				}

				// Ended, and its stream read to its end (or that last read failed, or took too long): every chunk is out.
				if (isTerminalStatus(job.status)) {
					endedAt ??= Date.now();
				}

				const drained = !job.follow || job.streamEnded === true || job.lastErrorKind !== undefined || Date.now() - (endedAt ?? Date.now()) >= drainWaitMs;
				if ((isTerminalStatus(job.status) && drained) || signal?.aborted) {
					resolve({job, streamed});
					return true;
				}

				const kind = job.lastErrorKind;
				if (kind && transientKinds.has(kind)) {
					failingSince ??= Date.now();
				} else {
					failingSince = undefined;
				}

				const givenUp = failingSince !== undefined && (job.status === 'UNKNOWN' || Date.now() - failingSince >= followGiveUpMs);
				if (kind && (fatalKinds.has(kind) || givenUp)) {
					reject(new FollowError(kind, job.lastError ?? 'the job could not be read'));
					return true;
				}

				return false;
			};

			if (check()) {
				return;
			}

			// A failure that repeats word for word changes nothing in the store: look again each second too.
			const timer = setInterval(() => {
				if (check()) {
					stop();
				}
			}, 1000);
			const unsubscribeStore = engine.store.subscribe(state => {
				if (state.jobs.changed.includes(key) && check()) {
					stop();
				}
			});
			function stop() {
				clearInterval(timer);
				unsubscribeStore();
			}

			signal?.addEventListener(
				'abort',
				() => {
					stop();
					check();
				},
				{once: true},
			);
		});
	} finally {
		unfollow();
	}
}

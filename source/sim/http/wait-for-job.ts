import type {Job} from '../job.js';

/**
Holds a long-poll (`/runsync`, `/status-sync`, `/stream?wait=`) until `done()` holds, `waitMs` of real
time pass, or `signal` aborts (client gone, simulator closing). Resolves either way.
*/
export async function waitForJob(job: Job, done: () => boolean, waitMs: number, signal: AbortSignal): Promise<void> {
	if (done() || waitMs <= 0 || signal.aborted) {
		return;
	}

	return new Promise(resolve => {
		const finish = () => {
			clearTimeout(timer);
			job.waiters.delete(check);
			signal.removeEventListener('abort', finish);
			resolve();
		};

		const check = () => {
			if (done()) {
				finish();
			}
		};

		const timer = setTimeout(finish, waitMs);
		job.waiters.add(check);
		signal.addEventListener('abort', finish, {once: true});
	});
}

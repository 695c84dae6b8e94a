import {isTerminalStatus, type JobStatusBody} from '../api/job-types.js';
import {chunkText} from '../format/stream-text.js';
import type {ScheduledApi} from '../poll/scheduled-api.js';

/**
Follows one job's stream like `tail -f`: every new chunk's text goes to `write` as it arrives, until
the job ends; resolves with its final status. Polls within the scheduler's budgets.
*/
export async function tailJob(api: ScheduledApi, endpointId: string, jobId: string, write: (text: string) => void, {intervalMs = 500, signal}: {intervalMs?: number; signal?: AbortSignal} = {}): Promise<JobStatusBody> {
	let status = await api.status(endpointId, jobId, 'action');
	while (!signal?.aborted) {
		const body = await api.stream(endpointId, jobId, 'visible');
		for (const chunk of body.stream) {
			write(chunkText(chunk.output));
		}

		if (isTerminalStatus(body.status) || isTerminalStatus(status.status)) {
			status = await api.status(endpointId, jobId, 'action');
			if (isTerminalStatus(status.status)) {
				return status;
			}
		}

		await new Promise<void>(resolve => {
			const timer = setTimeout(resolve, intervalMs);
			signal?.addEventListener('abort', () => {
				clearTimeout(timer);
				resolve();
			}, {once: true});
		});
	}

	return status;
}

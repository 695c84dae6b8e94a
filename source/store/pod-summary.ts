import type {PodRecord, PodSummary} from '../model/pod.js';

/**
A pod's summary laid over its last full record: the summary's fields are fresh, the rest (image,
machine, CPU, memory, uptime) stay as the last full poll saw them until the Pods pane is shown again.
A pod never seen in full is its summary alone. Unchanged fields keep their objects, so a summary
that changed nothing merges to a record equal to the previous one (no write).
*/
export function withSummary(previous: PodRecord | undefined, summary: PodSummary): PodRecord {
	if (!previous) {
		return summary;
	}

	const gpus = summary.runtime?.gpus;
	const previousGpus = previous.runtime?.gpus;
	const runtime = summary.runtime
		? {
				...previous.runtime,
				gpus: gpus ? gpus.map((gpu, index) => ({...previousGpus?.[index], ...gpu})) : gpus,
			}
		: summary.runtime;
	return {...previous, ...summary, runtime};
}

/** The one rule podtop uses to call a job a cold start; every view that counts them says it. */
export const coldStartRule =
	'a cold start is a job whose queue delay was over 3× the endpoint’s warm median delay and at least 1 s above it (over 2 s before any warm job was seen), on a worker not seen serving an earlier job (a job that waited behind others on a warm worker was queued, not cold)';

/** The same rule in a few words, for a column header or a legend. */
export const coldStartRuleShort = 'delay > 3× warm + 1 s, new worker';

/** Workers remembered as warm; beyond this the oldest are forgotten (bounded memory). */
const workersKept = 1024;

const firstGuessMs = 2000;
const factor = 3;
const marginMs = 1000;

export type ColdStartJudge = {
	/**
	Whether a job that waited `delayMs` in the queue met a cold worker; a warm one joins the median.
	`workerId` (when the service names it): a worker seen serving an earlier job is warm.
	*/
	readonly judge: (delayMs: number, workerId?: string) => boolean;
	/** The median delay of the recent warm jobs, undefined before any. */
	readonly warmMedianMs: () => number | undefined;
};

/** The delay over which a job counts as cold, given the warm median (undefined before any warm job). */
export function coldThresholdMs(warmMedianMs: number | undefined): number {
	return warmMedianMs === undefined ? firstGuessMs : Math.max(warmMedianMs * factor, warmMedianMs + marginMs);
}

/**
Judges jobs one by one against the median of the last `window` warm delays (bounded memory).
`seed` are delays known from before (recorded probes), judged in order as if just seen.
*/
export function createColdStartJudge({window = 64, seed = []}: {readonly window?: number; readonly seed?: readonly number[]} = {}): ColdStartJudge {
	const warm: number[] = [];
	let next = 0;
	let median: number | undefined;
	const workers = new Set<string>();
	const judge = (delayMs: number, workerId?: string): boolean => {
		const seenWorker = workerId !== undefined && workers.has(workerId);
		if (workerId !== undefined && !seenWorker) {
			workers.add(workerId);
			if (workers.size > workersKept) {
				workers.delete(workers.values().next().value!);
			}
		}

		if (!seenWorker && delayMs > coldThresholdMs(median)) {
			return true;
		}

		if (warm.length < window) {
			warm.push(delayMs);
		} else {
			warm[next] = delayMs;
			next = (next + 1) % window;
		}

		const sorted = warm.toSorted((a, b) => a - b);
		const middle = Math.floor(sorted.length / 2);
		median = sorted.length % 2 === 1 ? sorted[middle] : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
		return false;
	};

	for (const delay of seed) {
		judge(delay);
	}

	return {judge, warmMedianMs: () => median};
}

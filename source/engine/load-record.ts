import type {LatencySummary} from '../lib/latency-histogram.js';
import type {LoadSummary} from './load-run.js';

const times = ({p50, p90, p95, p99, max}: LatencySummary) => ({p50, p90, p95, p99, max});

/**
A load run as its audit line and history's `load` event keep it: counts, the percentiles of its
times, cold starts and the commonest errors. Small (under 1 kB), never the input, never a job id.
*/
export function loadRecord(summary: LoadSummary) {
	const {jobs} = summary;
	return {
		route: summary.route,
		rate: summary.ratePerSecond,
		planned: summary.planned,
		sent: jobs.sent,
		completed: jobs.completed,
		failed: jobs.failed,
		cancelled: jobs.cancelled,
		timedOut: jobs.timedOut,
		lost: jobs.lost,
		submitErrors: jobs.submitErrors,
		unfinished: summary.unfinished,
		stopped: summary.stopped,
		elapsedMs: summary.elapsedMs,
		delay: times(summary.delay),
		execution: times(summary.execution),
		total: times(summary.total),
		coldStarts: summary.coldStarts.count,
		endedPerSecond: Math.round(summary.throughput.endedPerSecond * 100) / 100,
		errors: summary.errors.slice(0, 3),
	};
}

import type {EndpointFigures, HealthSample} from './types.js';

/** Figures are taken over the last five minutes of samples (at least two samples 15 s apart). */
export const figuresWindowMs = 5 * 60_000;
const minimumSpanMs = 15_000;

const nonNegative = (value: number) => Math.max(0, value);

/**
Throughput, failure and retry rates, and the queue's drain ETA, from a health history; over a longer
window where that is all there is (the past at the hour rollups: an hour's counters).
*/
export function endpointFigures(history: readonly HealthSample[], windowMs = figuresWindowMs): EndpointFigures {
	const latest = history.at(-1);
	if (!latest) {
		return {throughputPerMinute: undefined, failureRate: undefined, retryRate: undefined, drainEtaSeconds: undefined};
	}

	const oldest = history.find(sample => latest.at - sample.at <= windowMs) ?? latest;
	const spanMs = latest.at - oldest.at;
	if (spanMs < minimumSpanMs) {
		return {throughputPerMinute: undefined, failureRate: undefined, retryRate: undefined, drainEtaSeconds: undefined};
	}

	// Counters are cumulative; a drop means they were reset (a recreated endpoint), not negative work.
	const completed = nonNegative(latest.completed - oldest.completed);
	const failed = nonNegative(latest.failed - oldest.failed);
	const retried = nonNegative(latest.retried - oldest.retried);
	const finished = completed + failed;
	const perMinute = (finished / spanMs) * 60_000;
	const queueChange = latest.inQueue - oldest.inQueue;
	let drainEtaSeconds: number | undefined;
	if (latest.inQueue === 0) {
		drainEtaSeconds = 0;
	} else if (perMinute > 0 && queueChange <= 0) {
		drainEtaSeconds = Math.round((latest.inQueue / perMinute) * 60);
	}

	return {
		throughputPerMinute: Math.round(perMinute * 10) / 10,
		failureRate: finished > 0 ? failed / finished : undefined,
		retryRate: finished > 0 ? retried / finished : undefined,
		drainEtaSeconds,
	};
}

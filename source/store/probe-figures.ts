import type {ProbeMeasure} from '../config/alert-rules.js';
import type {ProbeSample} from './types.js';

/** A probe's time by a measure: in the queue, running, or both; undefined when it did not finish. */
export function probeTime(probe: ProbeSample, measure: ProbeMeasure): number | undefined {
	if (probe.outcome !== 'ok') {
		return undefined;
	}

	const {delayMs, executionMs} = probe;
	return measure === 'delay'
		? delayMs
		: measure === 'execution'
			? executionMs
			: delayMs === undefined || executionMs === undefined
				? undefined
				: delayMs + executionMs;
}

/** The nearest-rank percentile of values (unsorted); undefined for none. */
export function percentile(values: readonly number[], rank: number): number | undefined {
	if (values.length === 0) {
		return undefined;
	}

	const sorted = values.toSorted((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((rank / 100) * sorted.length) - 1))];
}

export type ProbeFigures = {
	/** Probes sent in the window, and how many of them finished. */
	readonly count: number;
	readonly finished: number;
	/** The percentile asked for (95 unless said) of the finished probes' times. */
	readonly p95Ms: number | undefined;
	/** The share of the finished probes that met a cold worker, 0..1. */
	readonly coldShare: number | undefined;
};

/** What an endpoint's probes in (from, to] say: the percentile of a measure and the cold-start share. */
export function probeFigures(
	probes: readonly ProbeSample[] | undefined,
	from: number,
	to: number,
	{rank = 95, measure = 'total'}: {readonly rank?: number; readonly measure?: ProbeMeasure} = {},
): ProbeFigures {
	const inWindow = (probes ?? []).filter(probe => probe.at > from && probe.at <= to);
	const times = inWindow.flatMap(probe => probeTime(probe, measure) ?? []);
	const judged = inWindow.filter(probe => probe.outcome === 'ok' && probe.cold !== undefined);
	return {
		count: inWindow.length,
		finished: times.length,
		p95Ms: percentile(times, rank),
		coldShare: judged.length === 0 ? undefined : judged.filter(probe => probe.cold).length / judged.length,
	};
}

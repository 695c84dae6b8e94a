import {formatMillis} from '../format/duration.js';
import {sanitizeLine} from '../format/sanitize.js';
import {textTable} from '../format/text-table.js';
import type {LoadSummary} from '../engine/load-run.js';
import type {HistogramBar, LatencySummary} from '../lib/latency-histogram.js';

const rate = (value: number) => `${Number(value.toFixed(2))}/s`;

/** The rows of the latency table: delay, execution and total at p50/p90/p95/p99 and max. */
export function latencyRows(summary: Pick<LoadSummary, 'delay' | 'execution' | 'total'>): string[][] {
	const row = (label: string, {p50, p90, p95, p99, max}: LatencySummary) => [label, ...[p50, p90, p95, p99, max].map(value => formatMillis(value))];
	return [row('delay', summary.delay), row('execution', summary.execution), row('total', summary.total)];
}

export const latencyHeader = ['', 'p50', 'p90', 'p95', 'p99', 'max'];

/** Histogram bars as text lines: the range, a bar of `width` cells at most, the count. */
export function histogramLines(bars: readonly HistogramBar[], width: number, glyph = '█'): string[] {
	const most = Math.max(1, ...bars.map(bar => bar.count));
	const labels = bars.map(bar => `${formatMillis(bar.from)}–${formatMillis(bar.to)}`);
	const labelWidth = Math.max(0, ...labels.map(label => label.length));
	return bars.map((bar, index) => {
		const cells = bar.count === 0 ? 0 : Math.max(1, Math.round((bar.count / most) * width));
		return `${labels[index]!.padStart(labelWidth)}  ${glyph.repeat(cells)}${' '.repeat(width - cells)}  ${bar.count}`;
	});
}

/** The jobs line: every count, in the order a job goes. */
export function jobCountsLine({jobs, unfinished}: Pick<LoadSummary, 'jobs' | 'unfinished'>): string {
	const parts = [
		`sent ${jobs.sent}`,
		`queued ${jobs.queued}`,
		`running ${jobs.running}`,
		`done ${jobs.completed}`,
		`failed ${jobs.failed}`,
		...(jobs.timedOut > 0 ? [`timed out ${jobs.timedOut}`] : []),
		...(jobs.cancelled > 0 ? [`cancelled ${jobs.cancelled}`] : []),
		...(jobs.lost > 0 ? [`lost ${jobs.lost}`] : []),
		...(jobs.submitErrors > 0 ? [`not sent ${jobs.submitErrors}`] : []),
		...(unfinished > 0 && jobs.queued + jobs.running < unfinished ? [`unfinished ${unfinished}`] : []),
	];
	return parts.join('  ');
}

/** The summary of a run for people: what was sent, its times, histogram, cold starts, throughput and errors. Every service text is sanitised. */
export function loadSummaryText(summary: LoadSummary, glyph = '█'): string {
	const {coldStarts, throughput, requests, errors} = summary;
	const stopped =
		summary.stopped === 'interrupted'
			? ' (interrupted: sending stopped)'
			: summary.stopped === 'refused'
				? ` (stopped: ${sanitizeLine(summary.stopReason ?? 'the service refused')})`
				: '';
	const lines = [
		`${sanitizeLine(summary.endpointId)}: ${summary.jobs.attempted} of ${summary.planned} jobs at ${rate(summary.ratePerSecond)} through ${summary.route} in ${formatMillis(summary.elapsedMs)}${stopped}`,
		`jobs        ${jobCountsLine(summary)}`,
		'',
		textTable(latencyHeader, latencyRows(summary), new Set([1, 2, 3, 4, 5])),
		'',
		`histogram of the ${summary.histogram.of} time`,
		...histogramLines(summary.histogram.bars, 30, glyph),
		'',
		`cold starts ${coldStarts.count} (${coldStarts.rule})`,
		`throughput  ${rate(throughput.endedPerSecond)} ended, ${rate(throughput.sentPerSecond)} sent`,
		`requests    ${summary.route} ${requests.submit}  /status ${requests.status}${requests.cancel > 0 ? `  /cancel ${requests.cancel}` : ''}`,
	];
	if (errors.length > 0) {
		lines.push('', 'errors', ...errors.map(({message, count}) => `${String(count).padStart(6)}  ${sanitizeLine(message)}`));
	}

	return `${lines.join('\n')}\n`;
}

import {formatDuration, formatMillis} from '../format/duration.js';
import {type Glyphs, sparkline} from '../format/glyphs.js';
import {formatCount, formatPercent, formatRate, formatWorkerRange} from '../format/numbers.js';
import {sanitizeLine} from '../format/sanitize.js';
import {probeFigures, type ProbeFigures} from '../store/probe-figures.js';
import type {EndpointState, ProbeState} from '../store/types.js';
import type {Column, SortableRow} from './row.js';

export const endpointColumns = {
	wide: [
		{title: 'NAME', width: 16, flex: true, search: true},
		{title: 'RUN', width: 3, align: 'right'},
		{title: 'IDLE', width: 4, align: 'right'},
		{title: 'INIT', width: 4, align: 'right'},
		{title: 'THR', width: 3, align: 'right', legend: 'workers throttled'},
		{title: 'UNH', width: 3, align: 'right', legend: 'workers unhealthy'},
		{title: 'MIN-MAX', width: 7, align: 'right', legend: 'fewest-most workers'},
		{title: 'QUEUE', width: 5, align: 'right'},
		{title: 'PROG', width: 4, align: 'right', legend: 'jobs in progress'},
		{title: 'DONE', width: 6, align: 'right'},
		{title: 'FAIL', width: 5, align: 'right'},
		{title: 'RETRY', width: 5, align: 'right'},
		{title: 'RATE', width: 6, align: 'right', legend: 'jobs finished a minute'},
		{title: 'FAIL%', width: 5, align: 'right', legend: 'the failed share of jobs finished'},
		{title: 'QUEUE TREND', width: 12},
		{title: 'ETA', width: 6, align: 'right', legend: 'until the queue is empty at this rate'},
	],
	compact: [
		{title: 'NAME', width: 12, flex: true, search: true},
		{title: 'WORKERS', width: 9, legend: 'running/most workers; +N starting; ! some throttled or unhealthy'},
		{title: 'QUEUE', width: 5, align: 'right'},
		{title: 'PROG', width: 4, align: 'right', legend: 'jobs in progress'},
		{title: 'RATE', width: 6, align: 'right', legend: 'jobs finished a minute'},
		{title: 'FAIL%', width: 5, align: 'right', legend: 'the failed share of jobs finished'},
		{title: 'TREND', width: 8, legend: 'the queue over the window'},
		{title: 'ETA', width: 6, align: 'right', legend: 'until the queue is empty at this rate'},
	],
} as const satisfies Record<string, readonly Column[]>;

/** The probes' columns, shown when some `[[probe]]` rule exists: the P95 of their time (queue and run) and their cold-start share over the view's window. */
export const probeColumns = [
	{title: 'P95', width: 6, align: 'right', legend: "95th percentile of the probes' time, queue and run"},
	{title: 'COLD%', width: 5, align: 'right', legend: 'the share of probes that met a cold start'},
] as const satisfies readonly Column[];

/** The Endpoints pane's columns: with the probes' at the end when some probe rule exists. */
export function endpointColumnsFor(wide: boolean, probing: boolean): readonly Column[] {
	const base = wide ? endpointColumns.wide : endpointColumns.compact;
	return probing ? [...base, ...probeColumns] : base;
}

/** What the probes show: their state and the window (from, to] their figures are over. */
export type ProbeWindow = {readonly probes: ProbeState; readonly from: number; readonly to: number};

const probeCells = (figures: ProbeFigures | undefined) => [formatMillis(figures?.p95Ms), formatPercent(figures?.coldShare)];

const eta = (seconds: number | undefined) => (seconds === undefined ? '–' : seconds === 0 ? 'empty' : formatDuration(seconds));

/** Rows for the Endpoints pane, wide or compact. An endpoint whose health fails is marked, never shown as zeros. */
export function endpointRows(endpoints: readonly EndpointState[], wide: boolean, glyphs: Glyphs, probeWindow?: ProbeWindow): SortableRow[] {
	const probing = probeWindow?.probes.configured === true;
	return endpoints.map(({record, health, healthError, history, figures}) => {
		const probed = probing ? probeFigures(probeWindow.probes.byEndpoint[record.id], probeWindow.from, probeWindow.to) : undefined;
		const probeSort = probing ? [probed?.p95Ms, probed?.coldShare] : [];
		const name = sanitizeLine(record.name || record.id);
		const queueTrend = history.map(sample => sample.inQueue);
		const span = formatWorkerRange(record.workersMin, record.workersMax);
		// The name is the one text column: the id and the GPU pools are not shown, so they are not searched.
		const searchText = name;
		if (!health) {
			const state = healthError ? `${glyphs.warning} ${sanitizeLine(healthError)}` : 'loading…';
			return {
				key: record.id,
				cells: [name],
				span: `${state}${span === '–' ? '' : ` (workers ${span})`}`,
				sortValues: [name],
				searchText,
				tone: healthError ? 'bad' : undefined,
				dim: !healthError,
			};
		}

		const {jobs, workers} = health;
		const failRate = formatPercent(figures.failureRate);
		const stale = healthError !== undefined;
		const trendWidth = wide ? 12 : 8;
		const trend = stale ? `${glyphs.warning} stale` : sparkline(queueTrend, trendWidth, glyphs);
		const troubled = workers.unhealthy > 0 || workers.throttled > 0;
		const cells = [
			...(wide
				? [
						name,
						String(workers.running),
						String(workers.idle),
						String(workers.initializing),
						String(workers.throttled),
						String(workers.unhealthy),
						span,
						formatCount(jobs.inQueue),
						formatCount(jobs.inProgress),
						formatCount(jobs.completed),
						formatCount(jobs.failed),
						formatCount(jobs.retried),
						formatRate(figures.throughputPerMinute),
						failRate,
						trend,
						eta(figures.drainEtaSeconds),
					]
				: [
						name,
						`${workers.running}/${record.workersMax ?? '?'}${workers.initializing ? ` +${workers.initializing}` : ''}${troubled ? '!' : ''}`,
						formatCount(jobs.inQueue),
						formatCount(jobs.inProgress),
						formatRate(figures.throughputPerMinute),
						failRate,
						trend,
						eta(figures.drainEtaSeconds),
					]),
			...(probing ? probeCells(probed) : []),
		];
		const sortValues = wide
			? [
					name,
					workers.running,
					workers.idle,
					workers.initializing,
					workers.throttled,
					workers.unhealthy,
					record.workersMax ?? undefined,
					jobs.inQueue,
					jobs.inProgress,
					jobs.completed,
					jobs.failed,
					jobs.retried,
					figures.throughputPerMinute,
					figures.failureRate,
					jobs.inQueue,
					figures.drainEtaSeconds,
				]
			: [name, workers.running, jobs.inQueue, jobs.inProgress, figures.throughputPerMinute, figures.failureRate, jobs.inQueue, figures.drainEtaSeconds];
		sortValues.push(...probeSort);
		return {key: record.id, cells, sortValues, searchText, tone: stale ? 'warn' : (figures.failureRate ?? 0) >= 0.2 ? 'bad' : undefined, dim: stale};
	});
}

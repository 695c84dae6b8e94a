import {formatDuration, formatMillis} from '../format/duration.js';
import {type Glyphs, sparkline} from '../format/glyphs.js';
import {formatCount, formatPercent, formatRate, formatWorkerRange} from '../format/numbers.js';
import {sanitizeLine} from '../format/sanitize.js';
import {diagnose, type Diagnosis} from '../store/diagnosis.js';
import {diagnosisWord} from '../store/endpoint-diagnosis.js';
import {probeFigures, type ProbeFigures} from '../store/probe-figures.js';
import type {EndpointState, GpuState, ProbeState} from '../store/types.js';
import type {WorkersState} from '../store/worker-track.js';
import type {Collection} from '../store/state.js';
import type {Column, SortableRow} from './row.js';

const whyLegend = 'why jobs wait, in a word (details say more)';

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
		{title: 'WHY', width: 11, legend: whyLegend},
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
		{title: 'WHY', width: 6, legend: whyLegend},
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

/** What the rows need beside each endpoint's state: the probes' window (while probe rules exist), the workers and GPU types the diagnosis reads. */
export type EndpointExtra = {
	readonly probeWindow: ProbeWindow | undefined;
	readonly workers: WorkersState;
	readonly gpus: Collection<GpuState>;
};

/** The most troubling first, when the WHY column is sorted. */
const whyRank = ['crash-loop', 'at-limit', 'no-capacity', 'cold-start', 'stale-release'];

/**
An endpoint's diagnosis as of its latest read (its health's or its workers', whichever came last), for the
endpoints with something to say: jobs waiting, workers read, or some reading unhealthy.
*/
function rowDiagnosis(endpoint: EndpointState, extra: EndpointExtra | undefined): Diagnosis | undefined {
	const workers = extra?.workers.byEndpoint[endpoint.record.id];
	const {health} = endpoint;
	if (!extra || (!workers && !health?.jobs.inQueue && !health?.workers.unhealthy && endpoint.record.workersMax !== 0)) {
		return undefined;
	}

	return diagnose({
		endpoint: endpoint.record,
		health,
		history: endpoint.history,
		workers,
		rollout: extra.workers.rollouts[endpoint.record.id],
		gpus: extra.gpus.order.map(id => extra.gpus.byId[id]!.record),
		now: Math.max(endpoint.healthAt ?? 0, workers?.list.readAt ?? 0),
	});
}

const probeCells = (figures: ProbeFigures | undefined) => [formatMillis(figures?.p95Ms), formatPercent(figures?.coldShare)];

const eta = (seconds: number | undefined) => (seconds === undefined ? '–' : seconds === 0 ? 'empty' : formatDuration(seconds));

/** Rows for the Endpoints pane, wide or compact. An endpoint whose health fails is marked, never shown as zeros. */
export function endpointRows(endpoints: readonly EndpointState[], wide: boolean, glyphs: Glyphs, extra?: EndpointExtra): SortableRow[] {
	const probeWindow = extra?.probeWindow;
	const probing = probeWindow?.probes.configured === true;
	return endpoints.map(endpoint => {
		const {record, health, healthError, history, figures} = endpoint;
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
		const diagnosis = rowDiagnosis(endpoint, extra);
		const verdict = diagnosis?.findings[0];
		const why = sanitizeLine(verdict ? (wide ? verdict.word : verdict.short) : diagnosisWord(diagnosis));
		const whySort = verdict ? whyRank.indexOf(verdict.kind) : why ? whyRank.length : undefined;
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
						why,
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
						why,
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
					whySort,
				]
			: [
					name,
					workers.running,
					jobs.inQueue,
					jobs.inProgress,
					figures.throughputPerMinute,
					figures.failureRate,
					jobs.inQueue,
					figures.drainEtaSeconds,
					whySort,
				];
		sortValues.push(...probeSort);
		return {
			key: record.id,
			cells,
			sortValues,
			searchText,
			tone: stale ? 'warn' : (figures.failureRate ?? 0) >= 0.2 || verdict?.kind === 'crash-loop' ? 'bad' : undefined,
			dim: stale,
		};
	});
}

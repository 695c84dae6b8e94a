import {stockOfLevel} from '../store/gpu-stock.js';
import {kindFields} from './fields.js';
import type {SeriesKind} from './history-types.js';

/** A series' labels as Prometheus gives them. */
export type Labels = Readonly<Record<string, string>>;

/** One metric `podtop export` serves, and where each of its series goes in the kind's field order (undefined: nowhere). */
export type MetricTerm = {readonly metric: string; readonly position: (labels: Labels) => number | undefined};

export type ThingKind = Exclude<SeriesKind, 'account'>;

/** How the exporter labels each kind: the id, and the name the service gave it. */
export const kindLabels: Readonly<Record<ThingKind, {readonly key: string; readonly name: string}>> = {
	endpoint: {key: 'endpoint_id', name: 'endpoint'},
	pod: {key: 'pod_id', name: 'pod'},
	gpu: {key: 'gpu_type_id', name: 'gpu_type'},
};

/**
The metric every thing of a kind has while the exporter serves it: what names are resolved against
and what a point's count counts (one a scrape). An endpoint is recorded once it has health (as the
SQLite recorder does); a pod always has its info, a GPU type its stock.
*/
export const identityMetric: Readonly<Record<ThingKind, string>> = {
	endpoint: 'podtop_endpoint_jobs_in_queue',
	pod: 'podtop_pod_info',
	gpu: 'podtop_gpu_stock',
};

/** The metric a kind's categorical state comes from: a pod's status label, a GPU type's stock number (back to its word). */
export const stateMetric: Readonly<
	Partial<Record<ThingKind, {readonly metric: string; readonly state: (labels: Labels, value: number | null) => string | undefined}>>
> = {
	pod: {metric: 'podtop_pod_info', state: labels => labels.status || undefined},
	gpu: {metric: 'podtop_gpu_stock', state: (_labels, value) => stockOfLevel(value)},
};

const at = (kind: ThingKind, field: string): number => {
	const index = kindFields[kind].indexOf(field);
	if (index === -1) {
		throw new Error(`${kind} has no field ${field}`);
	}

	return index;
};

const fixed = (kind: ThingKind, metric: string, field: string): MetricTerm => {
	const index = at(kind, field);
	return {metric, position: () => index};
};

/** Series told apart by labels: the position of the field their labels (`keyOf`) name. */
const byLabels = (kind: ThingKind, metric: string, keyOf: (labels: Labels) => string, fields: Readonly<Record<string, string>>): MetricTerm => ({
	metric,
	position(labels) {
		const key = keyOf(labels);
		return Object.hasOwn(fields, key) ? at(kind, fields[key]!) : undefined;
	},
});

/** A pod's per-GPU pairs follow its fixed fields, by the GPU's place in the pod (`gpu_index`). */
const maxGpus = 64;
const perGpu = (metric: string, offset: 0 | 1): MetricTerm => ({
	metric,
	position(labels) {
		const index = Number(labels.gpu_index);
		return Number.isInteger(index) && index >= 0 && index < maxGpus && labels.gpu_index === String(index)
			? kindFields.pod.length + 2 * index + offset
			: undefined;
	},
});

const workerStates = ['running', 'idle', 'initializing', 'ready', 'throttled', 'unhealthy'];

/** Each kind's fields (fields.ts) as the exporter's metrics. Fields no metric carries stay null. */
export const metricTerms: Readonly<Record<ThingKind, readonly MetricTerm[]>> = {
	endpoint: [
		fixed('endpoint', 'podtop_endpoint_jobs_in_queue', 'inQueue'),
		fixed('endpoint', 'podtop_endpoint_jobs_in_progress', 'inProgress'),
		fixed('endpoint', 'podtop_endpoint_jobs_completed_total', 'completed'),
		fixed('endpoint', 'podtop_endpoint_jobs_failed_total', 'failed'),
		fixed('endpoint', 'podtop_endpoint_jobs_retried_total', 'retried'),
		byLabels('endpoint', 'podtop_endpoint_workers', ({state}) => state ?? '', Object.fromEntries(workerStates.map(state => [state, state]))),
		fixed('endpoint', 'podtop_endpoint_workers_min', 'workersMin'),
		fixed('endpoint', 'podtop_endpoint_workers_max', 'workersMax'),
	],
	pod: [
		fixed('pod', 'podtop_pod_cost_dollars_per_hour', 'costPerHr'),
		fixed('pod', 'podtop_pod_gpus', 'gpuCount'),
		fixed('pod', 'podtop_pod_up', 'up'),
		fixed('pod', 'podtop_pod_cpu_percent', 'cpuPercent'),
		fixed('pod', 'podtop_pod_memory_percent', 'memoryPercent'),
		perGpu('podtop_pod_gpu_utilization_percent', 0),
		perGpu('podtop_pod_gpu_memory_utilization_percent', 1),
	],
	gpu: [
		fixed('gpu', 'podtop_gpu_available_count', 'available'),
		byLabels('gpu', 'podtop_gpu_price_dollars_per_hour', ({cloud, kind}) => `${cloud}/${kind}`, {
			'secure/on_demand': 'securePrice',
			'community/on_demand': 'communityPrice',
			'secure/spot': 'secureSpotPrice',
			'community/spot': 'communitySpotPrice',
		}),
		fixed('gpu', 'podtop_gpu_lowest_price_dollars_per_hour', 'lowestPrice'),
		fixed('gpu', 'podtop_gpu_minimum_bid_dollars_per_hour', 'minimumBid'),
		byLabels('gpu', 'podtop_gpu_committed_price_dollars_per_hour', ({term}) => term ?? '', {
			one_week: 'oneWeekPrice',
			one_month: 'oneMonthPrice',
			three_months: 'threeMonthPrice',
			six_months: 'sixMonthPrice',
		}),
	],
};

/** The term of a metric of a kind, by name. */
export function termOf(kind: ThingKind, metric: string): MetricTerm | undefined {
	return metricTerms[kind].find(term => term.metric === metric);
}

/** A series that is there whenever the exporter was scraped (one per source): 0 * it is the account's "known, and nothing". */
export const scrapedMetric = 'podtop_source_stale';
const scraped = `0 * max(${scrapedMetric})`;

/**
The account's fields (fields.ts) as PromQL over the exporter's series, each robust to two scrapes
of one account (max by id first). The exporter has no alerts: firingAlerts is null.
*/
export const accountExpressions: ReadonlyArray<string | undefined> = [
	`sum(max by (pod_id) (podtop_pod_cost_dollars_per_hour) and on (pod_id) podtop_pod_info{status="RUNNING"}) or ${scraped}`,
	`count(max by (pod_id) (podtop_pod_info{status="RUNNING"})) or ${scraped}`,
	`count(max by (pod_id) (podtop_pod_info)) or ${scraped}`,
	`count(max by (endpoint_id) ({__name__=~"podtop_endpoint_jobs_in_queue|podtop_endpoint_workers_min"})) or ${scraped}`,
	undefined,
];

/** Every metric the reader asks for (a test checks the exporter serves each). */
export const readMetrics: readonly string[] = [
	...new Set([
		...Object.values(metricTerms).flatMap(terms => terms.map(term => term.metric)),
		...Object.values(identityMetric),
		'podtop_pod_uptime_seconds',
		scrapedMetric,
	]),
];

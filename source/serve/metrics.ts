import {Counter, Gauge, Histogram, Registry, type LabelValues} from 'prom-client';
import {formatPrice} from '../format/numbers.js';
import {sanitizeLine} from '../format/sanitize.js';
import {stockLevels, stockOf} from '../store/gpu-stock.js';
import {podCost, stoppedVolumeDollarsPerGbMonth} from '../store/pod-figures.js';
import type {PodtopStore} from '../store/create-store.js';
import type {PodtopState} from '../store/state.js';
import type {SourceName} from '../store/types.js';
import {registerSpendMetrics, type TodaySpend} from './spend-metrics.js';

/** A label value from the service: inert, on one line, and of a sane length. */
const label = (text: string | null | undefined) => sanitizeLine(text ?? '').slice(0, 128);

type Labels = LabelValues<string>;
type Sample = readonly [Labels, number | null | undefined];

/**
A metric read from the store at scrape time: `samples` lists its values now (what left the store
leaves the metric too). Counters mirror the service's running totals.
*/
function fromStore(
	{registry, store}: {readonly registry: Registry; readonly store: PodtopStore},
	kind: 'gauge' | 'counter',
	name: string,
	help: string,
	labelNames: readonly string[],
	samples: (state: PodtopState, now: number) => Iterable<Sample>,
): void {
	const collect = function (this: Gauge | Counter) {
		this.reset();
		for (const [labels, value] of samples(store.getState(), Date.now())) {
			if (typeof value === 'number' && Number.isFinite(value)) {
				if (this instanceof Gauge) {
					this.set(labels, value);
				} else {
					this.inc(labels, Math.max(0, value));
				}
			}
		}
	};

	const options = {name, help, labelNames, registers: [registry], collect};
	if (kind === 'gauge') {
		// eslint-disable-next-line no-new
		new Gauge(options);
	} else {
		// eslint-disable-next-line no-new
		new Counter(options);
	}
}

function* endpoints(state: PodtopState) {
	for (const id of state.endpoints.order) {
		const endpoint = state.endpoints.byId[id]!;
		yield {labels: {endpoint_id: label(id), endpoint: label(endpoint.record.name)}, endpoint};
	}
}

function* pods(state: PodtopState) {
	for (const id of state.pods.order) {
		const {record} = state.pods.byId[id]!;
		yield {labels: {pod_id: label(id), pod: label(record.name)}, record};
	}
}

function* gpuTypes(state: PodtopState) {
	for (const id of state.gpus.order) {
		const {record} = state.gpus.byId[id]!;
		yield {labels: {gpu_type_id: label(id), gpu_type: label(record.displayName ?? id)}, record};
	}
}

const endpointLabels = ['endpoint_id', 'endpoint'];
const podLabels = ['pod_id', 'pod'];
const gpuLabels = ['gpu_type_id', 'gpu_type'];
const sources: readonly SourceName[] = ['jobApi', 'graphql'];
const workerStates = ['running', 'idle', 'initializing', 'ready', 'throttled', 'unhealthy'] as const;

/**
The Prometheus registry of `podtop export`: per endpoint, pod and GPU type what the dashboard
shows, and podtop's own health (poll errors, data age, budget use), read from the store at each
scrape.
*/
export function createMetrics(
	store: PodtopStore,
	{spendToday}: {readonly spendToday?: () => TodaySpend | undefined} = {},
): {readonly registry: Registry; readonly close: () => void} {
	const registry = new Registry();
	if (spendToday) {
		registerSpendMetrics(registry, spendToday);
	}

	const gauge = (name: string, help: string, labelNames: readonly string[], samples: (state: PodtopState, now: number) => Iterable<Sample>) => {
		fromStore({registry, store}, 'gauge', name, help, labelNames, samples);
	};

	const counter = (name: string, help: string, labelNames: readonly string[], samples: (state: PodtopState, now: number) => Iterable<Sample>) => {
		fromStore({registry, store}, 'counter', name, help, labelNames, samples);
	};

	for (const [name, field, help] of [
		['completed', 'completed', 'Jobs completed, as the endpoint counts them'],
		['failed', 'failed', 'Jobs failed, as the endpoint counts them'],
		['retried', 'retried', 'Jobs retried, as the endpoint counts them'],
	] as const) {
		counter(`podtop_endpoint_jobs_${name}_total`, help, endpointLabels, function* (state) {
			for (const {labels, endpoint} of endpoints(state)) {
				yield [labels, endpoint.health?.jobs[field]];
			}
		});
	}

	gauge('podtop_endpoint_jobs_in_queue', 'Jobs waiting in the endpoint queue', endpointLabels, function* (state) {
		for (const {labels, endpoint} of endpoints(state)) {
			yield [labels, endpoint.health?.jobs.inQueue];
		}
	});
	gauge('podtop_endpoint_jobs_in_progress', 'Jobs running on a worker', endpointLabels, function* (state) {
		for (const {labels, endpoint} of endpoints(state)) {
			yield [labels, endpoint.health?.jobs.inProgress];
		}
	});
	gauge('podtop_endpoint_workers', 'Workers of the endpoint by state', [...endpointLabels, 'state'], function* (state) {
		for (const {labels, endpoint} of endpoints(state)) {
			for (const worker of workerStates) {
				yield [{...labels, state: worker}, endpoint.health?.workers[worker]];
			}
		}
	});
	gauge('podtop_endpoint_workers_min', 'Workers the endpoint keeps at least', endpointLabels, function* (state) {
		for (const {labels, endpoint} of endpoints(state)) {
			yield [labels, endpoint.record.workersMin];
		}
	});
	gauge('podtop_endpoint_workers_max', 'Workers the endpoint may scale to', endpointLabels, function* (state) {
		for (const {labels, endpoint} of endpoints(state)) {
			yield [labels, endpoint.record.workersMax];
		}
	});
	gauge('podtop_endpoint_throughput_per_minute', 'Jobs finished per minute over the recent window', endpointLabels, function* (state) {
		for (const {labels, endpoint} of endpoints(state)) {
			yield [labels, endpoint.figures.throughputPerMinute];
		}
	});
	gauge('podtop_endpoint_failure_ratio', 'Failed share of the jobs finished in the recent window (0..1)', endpointLabels, function* (state) {
		for (const {labels, endpoint} of endpoints(state)) {
			yield [labels, endpoint.figures.failureRate];
		}
	});

	for (const [name, what, field] of [
		['podtop_pod_gpu_utilization_percent', 'GPU utilisation', 'gpuUtilPercent'],
		['podtop_pod_gpu_memory_utilization_percent', 'GPU memory in use', 'memoryUtilPercent'],
	] as const) {
		gauge(name, `${what} per GPU of the pod (gpu: its id, gpu_index: its place in the pod, from 0)`, [...podLabels, 'gpu', 'gpu_index'], function* (state) {
			for (const {labels, record} of pods(state)) {
				for (const [index, gpu] of (record.runtime?.gpus ?? []).entries()) {
					yield [{...labels, gpu: label(gpu?.id ?? String(index)), gpu_index: String(index)}, gpu?.[field]];
				}
			}
		});
	}

	gauge('podtop_pod_gpus', 'GPUs the pod has (its gpuCount)', podLabels, function* (state) {
		for (const {labels, record} of pods(state)) {
			yield [labels, record.gpuCount];
		}
	});
	gauge('podtop_pod_up', '1 while the pod has a runtime (it is up), else 0', podLabels, function* (state) {
		for (const {labels, record} of pods(state)) {
			yield [labels, record.runtime ? 1 : 0];
		}
	});
	gauge('podtop_pod_cpu_percent', 'Container CPU use of the pod', podLabels, function* (state) {
		for (const {labels, record} of pods(state)) {
			yield [labels, record.runtime?.container?.cpuPercent];
		}
	});
	gauge('podtop_pod_memory_percent', 'Container memory use of the pod', podLabels, function* (state) {
		for (const {labels, record} of pods(state)) {
			yield [labels, record.runtime?.container?.memoryPercent];
		}
	});
	gauge('podtop_pod_uptime_seconds', 'Seconds since the pod last started', podLabels, function* (state) {
		for (const {labels, record} of pods(state)) {
			yield [labels, record.runtime?.uptimeInSeconds];
		}
	});
	gauge(
		'podtop_pod_cost_dollars_per_hour',
		"The pod's price per hour while it runs (the service's costPerHr; a stopped pod keeps it)",
		podLabels,
		function* (state) {
			for (const {labels, record} of pods(state)) {
				yield [labels, record.costPerHr];
			}
		},
	);
	gauge(
		'podtop_pod_cost_now_dollars_per_hour',
		`What the pod costs per hour now: running, its price; stopped, its volume at ${formatPrice(stoppedVolumeDollarsPerGbMonth)}/GB/month (an estimate); absent when unknown`,
		podLabels,
		function* (state) {
			for (const {labels, record} of pods(state)) {
				yield [labels, podCost(record).now];
			}
		},
	);
	gauge('podtop_pod_info', 'Always 1: the pod with its status, GPU type and image as labels', [...podLabels, 'status', 'gpu_type', 'image'], function* (state) {
		for (const {labels, record} of pods(state)) {
			yield [{...labels, status: label(record.desiredStatus), gpu_type: label(record.machine?.gpuDisplayName), image: label(record.imageName)}, 1];
		}
	});

	gauge(
		'podtop_gpu_price_dollars_per_hour',
		'Price per GPU-hour by cloud (secure, community) and kind (on demand, spot)',
		[...gpuLabels, 'cloud', 'kind'],
		function* (state) {
			for (const {labels, record} of gpuTypes(state)) {
				yield [{...labels, cloud: 'secure', kind: 'on_demand'}, record.securePrice];
				yield [{...labels, cloud: 'community', kind: 'on_demand'}, record.communityPrice];
				yield [{...labels, cloud: 'secure', kind: 'spot'}, record.secureSpotPrice];
				yield [{...labels, cloud: 'community', kind: 'spot'}, record.communitySpotPrice];
			}
		},
	);
	gauge(
		'podtop_gpu_stock',
		`Stock of the GPU type: ${Object.entries(stockLevels)
			.map(([word, level]) => `${level} ${word}`)
			.join(', ')}`,
		gpuLabels,
		function* (state) {
			for (const {labels, record} of gpuTypes(state)) {
				yield [labels, stockLevels[stockOf(record)]];
			}
		},
	);
	gauge(
		'podtop_gpu_lowest_price_dollars_per_hour',
		'The lowest on-demand price of one GPU of the type now (lowestPrice.uninterruptablePrice)',
		gpuLabels,
		function* (state) {
			for (const {labels, record} of gpuTypes(state)) {
				yield [labels, record.lowestPrice?.uninterruptablePrice];
			}
		},
	);
	gauge('podtop_gpu_minimum_bid_dollars_per_hour', 'The lowest spot bid per GPU-hour accepted now (lowestPrice.minimumBidPrice)', gpuLabels, function* (state) {
		for (const {labels, record} of gpuTypes(state)) {
			yield [labels, record.lowestPrice?.minimumBidPrice];
		}
	});
	gauge(
		'podtop_gpu_committed_price_dollars_per_hour',
		'Price per GPU-hour committed for a term (one_week, one_month, three_months, six_months)',
		[...gpuLabels, 'term'],
		function* (state) {
			for (const {labels, record} of gpuTypes(state)) {
				yield [{...labels, term: 'one_week'}, record.oneWeekPrice];
				yield [{...labels, term: 'one_month'}, record.oneMonthPrice];
				yield [{...labels, term: 'three_months'}, record.threeMonthPrice];
				yield [{...labels, term: 'six_months'}, record.sixMonthPrice];
			}
		},
	);
	gauge('podtop_gpu_available_count', 'GPUs of the type free to rent now (the most of one offer)', gpuLabels, function* (state) {
		for (const {labels, record} of gpuTypes(state)) {
			yield [labels, record.lowestPrice?.maxUnreservedGpuCount];
		}
	});

	// Poll errors are counted here, as each new one reaches the store.
	const errors: Record<SourceName, number> = {jobApi: 0, graphql: 0};
	const unsubscribe = store.subscribe((next, previous) => {
		for (const source of sources) {
			if (next.connection[source].lastErrorAt !== previous.connection[source].lastErrorAt && next.connection[source].lastErrorAt !== undefined) {
				errors[source] += 1;
			}
		}
	});
	counter('podtop_poll_errors_total', 'Polls that failed, by source (job API, GraphQL)', ['source'], function* () {
		for (const source of sources) {
			yield [{source}, errors[source]];
		}
	});
	gauge('podtop_data_age_seconds', 'Seconds since the source last answered', ['source'], function* (state, now) {
		for (const source of sources) {
			const at = state.connection[source].lastSuccessAt;
			yield [{source}, at === undefined ? undefined : (now - at) / 1000];
		}
	});
	gauge('podtop_source_stale', '1 while the source is failing (podtop shows last known data), else 0', ['source'], function* (state) {
		for (const source of sources) {
			yield [{source}, state.connection[source].staleSince === undefined ? 0 : 1];
		}
	});
	gauge('podtop_budget_used_ratio', 'Share of its rate budget each (endpoint, operation) used in the current window', ['budget'], function* (state) {
		for (const [key, budget] of Object.entries(state.budgets)) {
			yield [{budget: label(key)}, budget.allowed > 0 ? budget.used / budget.allowed : undefined];
		}
	});
	gauge('podtop_budget_backing_off', '1 while the budget waits out a 429 or an error', ['budget'], function* (state, now) {
		for (const [key, budget] of Object.entries(state.budgets)) {
			yield [{budget: label(key)}, budget.backoffUntil !== undefined && budget.backoffUntil > now ? 1 : 0];
		}
	});

	const unsubscribeProbes = probeMetrics(registry, store);
	return {
		registry,
		close() {
			unsubscribe();
			unsubscribeProbes();
		},
	};
}

/** Probe times from 100 ms to 10 minutes: a warm echo to a cold start of a large model. */
const probeBuckets = [0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600];

/**
The probes (`[[probe]]` rules) as a histogram of their delay, execution and total time per
endpoint, and a count by outcome and cold start: each probe observed once, as it reaches the store
(those sent before the exporter started, read back from history, are not counted again).
*/
function probeMetrics(registry: Registry, store: PodtopStore): () => void {
	const seconds = new Histogram({
		name: 'podtop_probe_seconds',
		help: 'Probe jobs that completed: time in the queue (delay), running (execution) and both (total)',
		labelNames: [...endpointLabels, 'measure'],
		buckets: probeBuckets,
		registers: [registry],
	});
	const probes = new Counter({
		name: 'podtop_probes_total',
		help: 'Probe jobs sent, by how they ended (ok, failed, refused, ambiguous, timeout, lost) and whether they met a cold worker',
		labelNames: [...endpointLabels, 'outcome', 'cold'],
		registers: [registry],
	});
	const since = Date.now();
	return store.subscribe((next, previous) => {
		if (next.probes.byEndpoint === previous.probes.byEndpoint) {
			return;
		}

		for (const [id, list] of Object.entries(next.probes.byEndpoint)) {
			const before = previous.probes.byEndpoint[id];
			if (list === before) {
				continue;
			}

			const known = new Set(before);
			const labels = {endpoint_id: label(id), endpoint: label(next.endpoints.byId[id]?.record.name ?? id)};
			for (const probe of list) {
				if (known.has(probe) || probe.at < since) {
					continue;
				}

				probes.inc({...labels, outcome: probe.outcome, cold: probe.cold ? 'true' : 'false'});
				if (probe.outcome === 'ok' && probe.delayMs !== undefined && probe.executionMs !== undefined) {
					seconds.observe({...labels, measure: 'delay'}, probe.delayMs / 1000);
					seconds.observe({...labels, measure: 'execution'}, probe.executionMs / 1000);
					seconds.observe({...labels, measure: 'total'}, (probe.delayMs + probe.executionMs) / 1000);
				}
			}
		}
	});
}

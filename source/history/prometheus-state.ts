import type {PodRecord} from '../model/pod.js';
import {endpointFigures} from '../store/endpoint-figures.js';
import {stockOfLevel} from '../store/gpu-stock.js';
import type {Collection} from '../store/state.js';
import type {EndpointState, GpuState, PodState} from '../store/types.js';
import {endpointAt, gpuAt, healthOf, healthSampleOf, kindFields, podAt} from './fields.js';
import type {PastAccount} from './history-types.js';
import {fromSeconds, sampleValue, type VectorSample} from './prometheus-answers.js';
import {identityMetric, kindLabels, type Labels, termOf, type ThingKind} from './prometheus-metrics.js';
import {termLabel} from './prometheus-queries.js';

type Values = Array<number | null>;
type Thing = {name: string | undefined; values: Values; labels: Labels | undefined; stock: number | null | undefined; uptime: number | null | undefined};

const kindOf = (name: string): ThingKind | undefined =>
	name.startsWith('podtop_endpoint_') ? 'endpoint' : name.startsWith('podtop_pod_') ? 'pod' : name.startsWith('podtop_gpu_') ? 'gpu' : undefined;

const setValue = (values: Values, position: number, value: number | null) => {
	while (values.length <= position) {
		values.push(null);
	}

	values[position] ??= value;
};

/** A label the exporter wrote empty for a value the service did not give. */
const labelValue = (labels: Labels | undefined, name: string): string | null => labels?.[name] || null;

const collection = <S>(byId: Record<string, S>, order: string[], at: number): Collection<S> => ({byId, order, updatedAt: at});

/**
The account at `at` from one instant query's vector (see `stateQuery`): records from the labels
(names, a pod's status, image and GPU type), health, runtime and prices from the gauges, each
endpoint's figures from its counters `figuresOffsetMs` earlier. Undefined when Prometheus had
nothing then: no sample of podtop within its lookback (5 min unless configured), or the exporter's
series ended (Prometheus marks them stale when a scrape fails or a thing leaves).
*/
export function pastAccount(samples: readonly VectorSample[], at: number): PastAccount | undefined {
	const things: Record<ThingKind, Map<string, Thing>> = {endpoint: new Map(), pod: new Map(), gpu: new Map()};
	const healthAt = new Map<string, number>();
	const before = new Map<string, Values>();
	const beforeAt = new Map<string, number>();
	let scrapedAt: number | undefined;
	for (const {metric, value} of samples) {
		const number = sampleValue(value[1]);
		const tag = metric[termLabel];
		const endpointId = metric[kindLabels.endpoint.key] ?? '';
		if (tag === 'scraped') {
			scrapedAt = number === null ? scrapedAt : fromSeconds(number);
			continue;
		}

		if (tag === 'at' || tag === 'before_at') {
			if (number !== null) {
				(tag === 'at' ? healthAt : beforeAt).set(endpointId, fromSeconds(number));
			}

			continue;
		}

		const name = metric.__name__ ?? '';
		const kind = kindOf(name);
		if (tag === 'before') {
			const position = termOf('endpoint', name)?.position(metric);
			if (position !== undefined) {
				const values = before.get(endpointId) ?? [];
				setValue(values, position, number);
				before.set(endpointId, values);
			}

			continue;
		}

		const key = kind ? metric[kindLabels[kind].key] : undefined;
		if (!kind || !key || tag !== undefined) {
			continue;
		}

		let thing = things[kind].get(key);
		if (!thing) {
			thing = {name: undefined, values: [], labels: undefined, stock: undefined, uptime: undefined};
			things[kind].set(key, thing);
		}

		thing.name ||= metric[kindLabels[kind].name];
		const position = termOf(kind, name)?.position(metric);
		if (position !== undefined) {
			setValue(thing.values, position, number);
		}

		if (name === identityMetric[kind]) {
			thing.labels ??= metric;
			thing.stock ??= kind === 'gpu' ? number : undefined;
		}

		if (name === 'podtop_pod_uptime_seconds') {
			thing.uptime ??= number;
		}
	}

	const count = things.endpoint.size + things.pod.size + things.gpu.size;
	if (count === 0 && scrapedAt === undefined) {
		return undefined;
	}

	const shownAt = scrapedAt ?? at;
	const sorted = (kind: ThingKind) => [...things[kind]].sort(([a, one], [b, other]) => (one.name ?? a).localeCompare(other.name ?? b) || a.localeCompare(b));
	const pad = (kind: ThingKind, values: Values) => Array.from({length: Math.max(kindFields[kind].length, values.length)}, (_, index) => values[index] ?? null);

	// Orders kept apart from the records: an object's keys that look like numbers would come first.
	const order = {endpoint: [] as string[], pod: [] as string[], gpu: [] as string[]};
	const endpoints: Record<string, EndpointState> = {};
	for (const [id, thing] of sorted('endpoint')) {
		order.endpoint.push(id);
		const values = pad('endpoint', thing.values);
		const record = endpointAt({id, name: thing.name ?? id}, values);
		const sampledAt = healthAt.get(id);
		if (sampledAt === undefined) {
			endpoints[id] = {record, history: [], figures: endpointFigures([])};
			continue;
		}

		const now = healthSampleOf(sampledAt, values);
		const earlierValues = before.get(id);
		const earlierAt = beforeAt.get(id);
		const history =
			earlierValues && earlierAt !== undefined && earlierAt < sampledAt ? [healthSampleOf(earlierAt, pad('endpoint', earlierValues)), now] : [now];
		endpoints[id] = {record, health: healthOf(values), healthAt: sampledAt, history, figures: endpointFigures(history)};
	}

	const pods: Record<string, PodState> = {};
	for (const [id, thing] of sorted('pod')) {
		order.pod.push(id);
		const gpuType = labelValue(thing.labels, 'gpu_type');
		const stored: PodRecord = {
			id,
			name: thing.name ?? null,
			imageName: labelValue(thing.labels, 'image'),
			...(gpuType ? {machine: {gpuDisplayName: gpuType}} : {}),
		};
		const record = podAt(stored, {state: labelValue(thing.labels, 'status') ?? undefined, values: pad('pod', thing.values)});
		pods[id] = {record: record.runtime ? {...record, runtime: {...record.runtime, uptimeInSeconds: thing.uptime ?? null}} : record, utilHistory: []};
	}

	const gpus: Record<string, GpuState> = {};
	for (const [id, thing] of sorted('gpu')) {
		order.gpu.push(id);
		const stock = stockOfLevel(thing.stock);
		gpus[id] = {record: gpuAt({id, displayName: thing.name ?? id}, {state: stock, values: pad('gpu', thing.values)}), stockHistory: [stock]};
	}

	return {
		at,
		tier: 'raw',
		endpoints: collection(endpoints, order.endpoint, shownAt),
		pods: collection(pods, order.pod, shownAt),
		gpus: collection(gpus, order.gpu, shownAt),
		serverlessDiscount: undefined,
		connection: {jobApi: {lastSuccessAt: shownAt}, graphql: {lastSuccessAt: shownAt}},
		// The exporter serves no alerts: which rules fired then is known to the local store only.
		alerts: [],
	};
}

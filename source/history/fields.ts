import type {EndpointRecord} from '../model/endpoint.js';
import type {GpuTypeRecord} from '../model/gpu-type.js';
import type {PodRecord} from '../model/pod.js';
import type {Health} from '../api/job-types.js';
import {stockOf} from '../store/gpu-stock.js';
import type {EndpointState, GpuState, HealthSample, PodState} from '../store/types.js';
import type {SeriesKind} from './history-types.js';
import {endpointValues, gpuValues, nullable, podValues} from './sample-values.js';

/** A sample as stored: a categorical state (a pod's status, a GPU type's stock word) and numbers in the kind's field order. */
export type Sample = {readonly state: string | undefined; readonly values: ReadonlyArray<number | null>};

/** The fixed fields of each kind, in storage order. A pod's per-GPU pairs follow its fixed fields (`gpu0.util`, `gpu0.memory`, …). */
export const kindFields: Readonly<Record<SeriesKind, readonly string[]>> = {
	endpoint: [
		'inQueue',
		'inProgress',
		'completed',
		'failed',
		'retried',
		'running',
		'idle',
		'initializing',
		'ready',
		'throttled',
		'unhealthy',
		'workersMin',
		'workersMax',
	],
	pod: ['costPerHr', 'gpuCount', 'up', 'cpuPercent', 'memoryPercent'],
	gpu: [
		'available',
		'securePrice',
		'communityPrice',
		'secureSpotPrice',
		'communitySpotPrice',
		'lowestPrice',
		'minimumBid',
		'oneWeekPrice',
		'oneMonthPrice',
		'threeMonthPrice',
		'sixMonthPrice',
	],
	account: ['runningCostPerHr', 'runningPods', 'pods', 'endpoints', 'firingAlerts'],
};

/** The names of a sample's positions (a pod's grow with its GPUs). */
export function fieldNames(kind: SeriesKind, length: number): string[] {
	const fixed = kindFields[kind];
	const names = fixed.slice(0, length);
	for (let index = fixed.length; index < length; index++) {
		const gpu = Math.floor((index - fixed.length) / 2);
		names.push(`gpu${gpu}.${(index - fixed.length) % 2 === 0 ? 'util' : 'memory'}`);
	}

	return names;
}

export function endpointSample(record: EndpointRecord, health: Health): Sample {
	return {state: undefined, values: nullable(endpointValues(record, health))};
}

export function podSample(record: PodRecord): Sample {
	return {state: record.desiredStatus ?? undefined, values: nullable(podValues(record))};
}

export function gpuSample(record: GpuTypeRecord): Sample {
	return {state: stockOf(record), values: nullable(gpuValues(record))};
}

/** What changes rarely, kept apart from the samples: an endpoint's record without its worker pods. */
export function endpointRecordPart(record: EndpointRecord): EndpointRecord {
	const {pods: _pods, ...rest} = record;
	return rest;
}

/** When a running pod started, to the second, told from its uptime at `polledAt` (undefined: it is not running, or says no uptime). */
export function podStartedAt(record: PodRecord, polledAt: number): number | undefined {
	const uptime = record.runtime?.uptimeInSeconds;
	return typeof uptime === 'number' && Number.isFinite(uptime) && polledAt > 0 ? Math.round(polledAt / 1000 - uptime) * 1000 : undefined;
}

/** The start a stored pod part says (`podStartedAt`), if it says one (parts stored before it was kept do not). */
export function storedStart(stored: PodRecord): number | undefined {
	const {startedAt} = stored as {startedAt?: unknown};
	return typeof startedAt === 'number' ? startedAt : undefined;
}

/** A pod's uptime at `at` from the start its stored part says, when it says one. */
export function podUptimeAt(stored: PodRecord, at: number | undefined): number | null {
	const startedAt = storedStart(stored);
	return startedAt !== undefined && at !== undefined ? Math.max(0, Math.round((at - startedAt) / 1000)) : null;
}

/** A pod's record without what the samples hold (status, cost, runtime) and never its env (it holds secrets). */
export function podRecordPart(record: PodRecord): PodRecord {
	const {runtime: _runtime, desiredStatus: _status, costPerHr: _cost, env: _env, ...rest} = record;
	return rest;
}

/** A GPU type's record without its prices and stock (the samples hold those). */
export function gpuRecordPart(record: GpuTypeRecord): GpuTypeRecord {
	const {
		securePrice: _secure,
		communityPrice: _community,
		secureSpotPrice: _secureSpot,
		communitySpotPrice: _communitySpot,
		oneWeekPrice: _week,
		oneMonthPrice: _month,
		threeMonthPrice: _three,
		sixMonthPrice: _six,
		lowestPrice,
		...rest
	} = record;
	return lowestPrice?.compliance ? {...rest, lowestPrice: {compliance: lowestPrice.compliance}} : rest;
}

const value = (values: ReadonlyArray<number | null>, index: number): number | null => values[index] ?? null;
const count = (values: ReadonlyArray<number | null>, index: number): number => value(values, index) ?? 0;

/** The health an endpoint sample says. */
export function healthOf(values: ReadonlyArray<number | null>): Health {
	return {
		jobs: {inQueue: count(values, 0), inProgress: count(values, 1), completed: count(values, 2), failed: count(values, 3), retried: count(values, 4)},
		workers: {
			running: count(values, 5),
			idle: count(values, 6),
			initializing: count(values, 7),
			ready: count(values, 8),
			throttled: count(values, 9),
			unhealthy: count(values, 10),
		},
	};
}

/** An endpoint's health sample (as the store keeps them for its figures) from a recorded one taken at `at`. */
export function healthSampleOf(at: number, values: ReadonlyArray<number | null>): HealthSample {
	const {jobs, workers} = healthOf(values);
	return {at, ...jobs, running: workers.running};
}

/** An endpoint's record as it was: its stored part, with the workers range of the sample. */
export function endpointAt(record: EndpointRecord, values: ReadonlyArray<number | null> | undefined): EndpointRecord {
	// Object.assign, not a spread followed by keys: V8 copies the first fast, the second key by key (10,000 pods: 5 ms against 70).
	// eslint-disable-next-line prefer-object-spread -- see above
	return values ? Object.assign({}, record, {workersMin: value(values, 11) ?? record.workersMin, workersMax: value(values, 12) ?? record.workersMax}) : record;
}

/** A pod's record as it was: its stored part with the sample's status, cost and runtime. */
export function podAt(record: PodRecord, sample: Sample | undefined, at?: number): PodRecord {
	if (!sample) {
		return withoutStart(record);
	}

	const {state, values} = sample;
	const fixed = kindFields.pod.length;
	// Made at its length (a list grown by push from empty takes room for 17: a past account makes one per pod).
	const count = values.length > fixed ? Math.ceil((values.length - fixed) / 2) : 0;
	// eslint-disable-next-line unicorn/no-new-array -- see above; every place is filled below
	const gpus = new Array<{gpuUtilPercent: number | null; memoryUtilPercent: number | null}>(count);
	for (let gpu = 0; gpu < count; gpu++) {
		const index = fixed + 2 * gpu;
		gpus[gpu] = {gpuUtilPercent: value(values, index), memoryUtilPercent: value(values, index + 1)};
	}

	const up = value(values, 2) === 1;
	// eslint-disable-next-line prefer-object-spread -- as in endpointAt (a past account builds one per pod)
	return Object.assign({}, record, {
		desiredStatus: state ?? null,
		costPerHr: value(values, 0),
		gpuCount: value(values, 1) ?? record.gpuCount,
		runtime: up ? {uptimeInSeconds: podUptimeAt(record, at), gpus, container: {cpuPercent: value(values, 3), memoryPercent: value(values, 4)}} : null,
		// The stored start is the history's, not the service's: the record reads as the service's did.
		startedAt: undefined,
	});
}

/** A stored pod part as the service's record (without the start the history keeps in it). */
function withoutStart(record: PodRecord): PodRecord {
	if (!Object.hasOwn(record, 'startedAt')) {
		return record;
	}

	const {startedAt: _startedAt, ...rest} = record as PodRecord & {startedAt?: unknown};
	return rest;
}

/** A GPU type's record as it was: its stored part with the sample's prices, count and stock. */
export function gpuAt(record: GpuTypeRecord, sample: Sample | undefined): GpuTypeRecord {
	if (!sample) {
		return record;
	}

	const {state, values} = sample;
	// eslint-disable-next-line prefer-object-spread -- as in endpointAt
	return Object.assign({}, record, {
		securePrice: value(values, 1),
		communityPrice: value(values, 2),
		secureSpotPrice: value(values, 3),
		communitySpotPrice: value(values, 4),
		oneWeekPrice: value(values, 7),
		oneMonthPrice: value(values, 8),
		threeMonthPrice: value(values, 9),
		sixMonthPrice: value(values, 10),
		lowestPrice: {
			...record.lowestPrice,
			stockStatus: state === 'Unknown' ? null : (state ?? null),
			maxUnreservedGpuCount: value(values, 0),
			uninterruptablePrice: value(values, 5),
			minimumBidPrice: value(values, 6),
		},
	});
}

/** The sample of each kind's state in the store, or undefined when there is nothing to record (an endpoint with no health yet). */
export function endpointStateSample(state: EndpointState): Sample | undefined {
	return state.health ? endpointSample(state.record, state.health) : undefined;
}

export const podStateSample = (state: PodState): Sample => podSample(state.record);
export const gpuStateSample = (state: GpuState): Sample => gpuSample(state.record);

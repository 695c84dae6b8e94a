import type {EndpointRecord} from '../model/endpoint.js';
import type {GpuTypeRecord} from '../model/gpu-type.js';
import type {PodRecord} from '../model/pod.js';
import type {Health} from '../api/job-types.js';

/**
A sample's values made in place: a list of numbers reused from one call to the next (valid until
the next fill), NaN where a value is unknown. `JSON.stringify` writes NaN as `null`, as it writes a
null, so its text is the stored text. A list of doubles holds its numbers unboxed: the recorder
fills one per pod at each poll (10,000 pods) and keeps only what changed, no list or object made.
*/
export type FilledValues = readonly number[];

/** The lists by length, each only ever holding numbers (V8 keeps them as plain doubles). */
const lists: number[][] = [];

function listOf(length: number): number[] {
	let list = lists[length];
	if (!list) {
		list = Array.from({length}, () => 0.5);
		lists[length] = list;
	}

	return list;
}

const known = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : Number.NaN);
/** Prices and costs to a hundredth of a cent: the service gives no more, and the file stays small. */
const money = (value: unknown): number => {
	const number = known(value);
	return Number.isNaN(number) ? number : Math.round(number * 10_000) / 10_000;
};

export function endpointValues(record: EndpointRecord, health: Health): FilledValues {
	const {jobs, workers} = health;
	const values = listOf(13);
	values[0] = known(jobs.inQueue);
	values[1] = known(jobs.inProgress);
	values[2] = known(jobs.completed);
	values[3] = known(jobs.failed);
	values[4] = known(jobs.retried);
	values[5] = known(workers.running);
	values[6] = known(workers.idle);
	values[7] = known(workers.initializing);
	values[8] = known(workers.ready);
	values[9] = known(workers.throttled);
	values[10] = known(workers.unhealthy);
	values[11] = known(record.workersMin);
	values[12] = known(record.workersMax);
	return values;
}

export function podValues(record: PodRecord): FilledValues {
	const runtime = record.runtime ?? undefined;
	const gpus = runtime?.gpus ?? [];
	const values = listOf(5 + 2 * gpus.length);
	values[0] = money(record.costPerHr);
	values[1] = known(record.gpuCount);
	values[2] = runtime ? 1 : 0;
	values[3] = known(runtime?.container?.cpuPercent);
	values[4] = known(runtime?.container?.memoryPercent);
	// eslint-disable-next-line unicorn/no-for-loop -- the index places each pair; no entries made per GPU
	for (let index = 0; index < gpus.length; index++) {
		const gpu = gpus[index];
		values[5 + 2 * index] = known(gpu?.gpuUtilPercent);
		values[6 + 2 * index] = known(gpu?.memoryUtilPercent);
	}

	return values;
}

export function gpuValues(record: GpuTypeRecord): FilledValues {
	const lowest = record.lowestPrice ?? undefined;
	const values = listOf(11);
	values[0] = known(lowest?.maxUnreservedGpuCount);
	values[1] = money(record.securePrice);
	values[2] = money(record.communityPrice);
	values[3] = money(record.secureSpotPrice);
	values[4] = money(record.communitySpotPrice);
	values[5] = money(lowest?.uninterruptablePrice);
	values[6] = money(lowest?.minimumBidPrice);
	values[7] = money(record.oneWeekPrice);
	values[8] = money(record.oneMonthPrice);
	values[9] = money(record.threeMonthPrice);
	values[10] = money(record.sixMonthPrice);
	return values;
}

/** Values kept (a thing's last written) filled into the list of their length, for their text: a list of doubles, not a spread of boxed numbers (a fifth of the time and the garbage). */
export function refilled(kept: Float64Array): FilledValues {
	const values = listOf(kept.length);
	// eslint-disable-next-line unicorn/no-for-loop -- two lists walked together
	for (let index = 0; index < kept.length; index++) {
		values[index] = kept[index]!;
	}

	return values;
}

/** The values as a `Sample` holds them: a list of its own, null where unknown. */
export const nullable = (values: FilledValues): Array<number | null> => values.map(value => (Number.isNaN(value) ? null : value));

/** Whether filled values say what values kept before said (NaN equal to NaN). */
export function sameValues(kept: Float64Array, values: FilledValues): boolean {
	if (kept.length !== values.length) {
		return false;
	}

	// eslint-disable-next-line unicorn/no-for-loop -- two lists walked together
	for (let index = 0; index < values.length; index++) {
		const a = kept[index]!;
		const b = values[index]!;
		// eslint-disable-next-line no-self-compare -- NaN (unknown) is the only value not equal to itself
		if (a !== b && (a === a || b === b)) {
			return false;
		}
	}

	return true;
}

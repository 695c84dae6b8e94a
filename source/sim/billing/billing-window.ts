import {RestError} from '../rest/rest-error.js';
import type {RestQuery} from '../rest/query.js';
import {bucketAfter, bucketBounds, bucketEnd, bucketSizes, bucketStart, type BucketSize} from '../../lib/utc-buckets.js';

/** The resolved window of a billing query: aligned to its buckets, end exclusive. */
export type BillingWindow = {readonly bucketSize: BucketSize; readonly bounds: readonly number[]};

/** A year of hours (a leap one): the most buckets one answer holds. */
export const maxBuckets = 8784;

const defaultSpanMs = 30 * 86_400_000;
const rfc3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)$/;

function time(query: RestQuery, name: string, errors: string[]): number | undefined {
	const raw = query.string(name);
	if (raw === undefined) {
		return undefined;
	}

	const value = rfc3339.test(raw) ? Date.parse(raw) : Number.NaN;
	if (Number.isNaN(value)) {
		errors.push(`${name}: must be an RFC 3339 date-time, got "${raw}"`);
		return undefined;
	}

	return value;
}

/**
`startTime`, `endTime` (exclusive), `bucketSize` (default day) or `lastN` (the last N buckets, the one in
progress included), as the spec resolves them: the start snapped down and the end up to bucket edges,
30 days back to now by default. Bad input is 400 with the failures listed.
*/
export function billingWindow(query: RestQuery, now: number): BillingWindow {
	const errors: string[] = [];
	const size = query.string('bucketSize') ?? 'day';
	if (!(bucketSizes as readonly string[]).includes(size)) {
		errors.push(`bucketSize: must be one of ${bucketSizes.join(', ')}, got "${size}"`);
	}

	const start = time(query, 'startTime', errors);
	const end = time(query, 'endTime', errors);
	const rawLastN = query.string('lastN');
	const lastN = rawLastN === undefined ? undefined : Number(rawLastN);
	if (rawLastN !== undefined && (!/^\d+$/.test(rawLastN) || lastN! < 1)) {
		errors.push(`lastN: must be an integer of at least 1, got "${rawLastN}"`);
	}

	if (rawLastN !== undefined && (query.has('startTime') || query.has('endTime'))) {
		errors.push('lastN: give either lastN or startTime/endTime, not both');
	}

	if (errors.length > 0) {
		throw new RestError(400, 'Invalid billing query.', errors);
	}

	const bucketSize = size as BucketSize;
	let from: number;
	let to: number;
	if (lastN === undefined) {
		from = bucketStart(start ?? now - defaultSpanMs, bucketSize);
		to = bucketEnd(end ?? now, bucketSize);
	} else {
		const current = bucketStart(now, bucketSize);
		if (lastN > maxBuckets) {
			throw new RestError(400, 'Invalid billing query.', [`lastN: at most ${maxBuckets} buckets, got ${lastN}`]);
		}

		from = bucketAfter(current, bucketSize, 1 - lastN);
		to = bucketAfter(current, bucketSize);
	}

	if (to <= from) {
		throw new RestError(400, 'Invalid billing query.', ['endTime: must be after startTime']);
	}

	// Counted before the edges are made: a century of hours is refused without building it.
	const roughBuckets = (to - from) / {hour: 3_600_000, day: 86_400_000, week: 604_800_000, month: 2_419_200_000, year: 31_536_000_000}[bucketSize];
	if (roughBuckets > maxBuckets + 1) {
		throw new RestError(400, 'Invalid billing query.', [
			`the window holds more than ${maxBuckets} ${bucketSize} buckets: ask for a shorter one or larger buckets`,
		]);
	}

	return {bucketSize, bounds: bucketBounds(from, to, bucketSize)};
}

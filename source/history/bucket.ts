/**
A summary of the values of one series over one bucket (a minute, an hour, a chart column): per
position, the lowest and highest value, the sum of means × counts and how many were counted, and
the newest summary's value. Each is a list of doubles as long as the longest summary folded in,
NaN where nothing is known: numbers are held unboxed (lists of numbers and nulls kept each figure
as an object of its own), and `JSON.stringify` writes NaN as null, so a list's text is the stored one.
*/
export type Bucket = {
	count: number;
	state: string | undefined;
	lastAt: number;
	readonly min: number[];
	readonly max: number[];
	readonly sum: number[];
	readonly counted: number[];
	/** The newest summary's values; a shorter one (a pod that lost GPUs) leaves the positions past it NaN. */
	readonly last: number[];
};

type Summary = {
	readonly min: ReadonlyArray<number | null>;
	readonly mean: ReadonlyArray<number | null>;
	readonly max: ReadonlyArray<number | null>;
	readonly last: ReadonlyArray<number | null>;
};

export const emptyBucket = (): Bucket => ({count: 0, state: undefined, lastAt: Number.NEGATIVE_INFINITY, min: [], max: [], sum: [], counted: [], last: []});

/**
Folds a summary into a bucket: a raw sample is a summary of one (min = mean = max = last). Values
that are null (not known then) count for nothing; the newest sample's state and last values win.
Written as plain loops over lists of doubles: maintenance folds every raw sample of a minute
(10,000 pods: about 100,000 a minute) through it.
*/
export function addToBucket(bucket: Bucket, at: number, count: number, state: string | undefined, summary: Summary): void {
	const length = Math.max(summary.min.length, summary.last.length);
	const {min, max, sum, counted, last} = bucket;
	while (min.length < length) {
		min.push(Number.NaN);
		max.push(Number.NaN);
		sum.push(0);
		counted.push(0);
		last.push(Number.NaN);
	}

	for (let index = 0; index < length; index++) {
		const low = summary.min[index];
		// Not below or equal: higher, or nothing known yet (NaN).
		if (low !== undefined && low !== null && !(min[index]! <= low)) {
			min[index] = low;
		}

		const high = summary.max[index];
		if (high !== undefined && high !== null && !(max[index]! >= high)) {
			max[index] = high;
		}

		const mean = summary.mean[index];
		if (mean !== undefined && mean !== null) {
			sum[index]! += mean * count;
			counted[index]! += count;
		}
	}

	bucket.count += count;
	if (at >= bucket.lastAt) {
		bucket.lastAt = at;
		bucket.state = state;

		for (let index = 0; index < last.length; index++) {
			last[index] = index < length ? (summary.last[index] ?? Number.NaN) : Number.NaN;
		}
	}
}

const round = (value: number) => Math.round(value * 10_000) / 10_000;

/** The list the means are made in for their text, reused (valid until the next call). */
const scratch: number[] = [Number.NaN];

/** The bucket's means, per position, NaN where nothing was known: a list reused by the next call. */
function means(bucket: Bucket): readonly number[] {
	const {sum, counted} = bucket;
	scratch.length = sum.length;
	// eslint-disable-next-line unicorn/no-for-loop -- two lists walked together
	for (let index = 0; index < sum.length; index++) {
		scratch[index] = counted[index]! > 0 ? round(sum[index]! / counted[index]!) : Number.NaN;
	}

	return scratch;
}

/** The four figures' texts as stored (JSON lists, null where nothing is known), with no list made for them. */
export function bucketTexts(bucket: Bucket): {readonly min: string; readonly mean: string; readonly max: string; readonly last: string} {
	return {min: JSON.stringify(bucket.min), mean: JSON.stringify(means(bucket)), max: JSON.stringify(bucket.max), last: JSON.stringify(bucket.last)};
}

const nullable = (values: readonly number[]): Array<number | null> => values.map(value => (Number.isNaN(value) ? null : value));

/** The four figures per position, null where nothing is known. */
export function bucketSummary(bucket: Bucket): {
	readonly min: Array<number | null>;
	readonly mean: Array<number | null>;
	readonly max: Array<number | null>;
	readonly last: Array<number | null>;
} {
	return {min: nullable(bucket.min), mean: nullable(means(bucket)), max: nullable(bucket.max), last: nullable(bucket.last)};
}

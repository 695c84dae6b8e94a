/** A summary of the values of one series over one bucket (a minute, an hour, a chart column). */
export type Bucket = {
	count: number;
	state: string | undefined;
	lastAt: number;
	readonly min: Array<number | null>;
	/** Sum of (mean × count) per position, and how many counted, so buckets merge exactly. */
	readonly sum: number[];
	readonly counted: number[];
	readonly max: Array<number | null>;
	readonly last: Array<number | null>;
};

export const emptyBucket = (): Bucket => ({count: 0, state: undefined, lastAt: Number.NEGATIVE_INFINITY, min: [], sum: [], counted: [], max: [], last: []});

/**
Folds a summary into a bucket: a raw sample is a summary of one (min = mean = max = last). Values
that are null (not known then) count for nothing; the newest sample's state and last values win.
Written as plain loops over arrays of one shape: maintenance folds every raw sample of a minute
(10,000 pods: about 100,000 a minute) through it.
*/
export function addToBucket(
	bucket: Bucket,
	at: number,
	count: number,
	state: string | undefined,
	summary: {
		readonly min: ReadonlyArray<number | null>;
		readonly mean: ReadonlyArray<number | null>;
		readonly max: ReadonlyArray<number | null>;
		readonly last: ReadonlyArray<number | null>;
	},
): void {
	const length = Math.max(summary.min.length, summary.last.length);
	const {min, max, sum, counted} = bucket;
	while (min.length < length) {
		min.push(null);
		max.push(null);
		sum.push(0);
		counted.push(0);
	}

	for (let index = 0; index < length; index++) {
		const low = summary.min[index];
		if (low !== undefined && low !== null) {
			const current = min[index]!;
			min[index] = current === null || low < current ? low : current;
		}

		const high = summary.max[index];
		if (high !== undefined && high !== null) {
			const current = max[index]!;
			max[index] = current === null || high > current ? high : current;
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
		// Written over in place (emptied and pushed again, the list's store was made anew at each sample: a
		// minute's rollup of 2,000 pods allocated 6 MB in it); a shorter sample (a pod that lost GPUs)
		// leaves no stale positions in `last`.
		const {last} = bucket;
		last.length = length;
		for (let index = 0; index < length; index++) {
			last[index] = summary.last[index] ?? null;
		}
	}
}

const round = (value: number) => Math.round(value * 10_000) / 10_000;

/** The bucket's means, per position (null where nothing was known). */
export function bucketMeans(bucket: Bucket): Array<number | null> {
	return bucket.sum.map((sum, index) => {
		const counted = bucket.counted[index] ?? 0;
		return counted > 0 ? round(sum / counted) : null;
	});
}

/** Pads the shorter arrays to the longest, so every position has all four figures (the bucket's own lists where they are that long already: a summary is read once its bucket is closed). */
export function bucketSummary(bucket: Bucket): {
	readonly min: Array<number | null>;
	readonly mean: Array<number | null>;
	readonly max: Array<number | null>;
	readonly last: Array<number | null>;
} {
	const mean = bucketMeans(bucket);
	const length = Math.max(bucket.min.length, bucket.max.length, mean.length, bucket.last.length);
	return {min: padded(bucket.min, length), mean: padded(mean, length), max: padded(bucket.max, length), last: padded(bucket.last, length)};
}

/** The values as long as `length`: the list itself when it is (a bucket's summary is read once it is closed), else a padded copy. */
function padded(values: Array<number | null>, length: number): Array<number | null> {
	if (values.length === length) {
		return values;
	}

	const copy = values.slice(0, length);
	while (copy.length < length) {
		copy.push(null);
	}

	return copy;
}

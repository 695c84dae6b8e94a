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
	for (let index = 0; index < length; index++) {
		const low = summary.min[index] ?? null;
		const mean = summary.mean[index] ?? null;
		const high = summary.max[index] ?? null;
		if (low !== null) {
			const current = bucket.min[index] ?? null;
			bucket.min[index] = current === null ? low : Math.min(current, low);
		} else if (bucket.min[index] === undefined) {
			bucket.min[index] = null;
		}

		if (high !== null) {
			const current = bucket.max[index] ?? null;
			bucket.max[index] = current === null ? high : Math.max(current, high);
		} else if (bucket.max[index] === undefined) {
			bucket.max[index] = null;
		}

		if (mean === null) {
			bucket.sum[index] ??= 0;
			bucket.counted[index] ??= 0;
		} else {
			bucket.sum[index] = (bucket.sum[index] ?? 0) + mean * count;
			bucket.counted[index] = (bucket.counted[index] ?? 0) + count;
		}
	}

	bucket.count += count;
	if (at >= bucket.lastAt) {
		bucket.lastAt = at;
		bucket.state = state;
		bucket.last.length = 0;
		bucket.last.push(...summary.last);
		// A shorter sample (a pod that lost GPUs) leaves no stale positions in `last`.
		for (let index = summary.last.length; index < length; index++) {
			bucket.last.push(null);
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

/** Pads the shorter arrays to the longest, so every position has all four figures. */
export function bucketSummary(bucket: Bucket): {
	readonly min: Array<number | null>;
	readonly mean: Array<number | null>;
	readonly max: Array<number | null>;
	readonly last: Array<number | null>;
} {
	const mean = bucketMeans(bucket);
	const length = Math.max(bucket.min.length, bucket.max.length, mean.length, bucket.last.length);
	const pad = (values: Array<number | null>) => Array.from({length}, (_, index) => values[index] ?? null);
	return {min: pad(bucket.min), mean: pad(mean), max: pad(bucket.max), last: pad(bucket.last)};
}

/** Values below this are counted one bucket per millisecond: exact. */
const linearBuckets = 2048;
/** Buckets per doubling above that: a bucket is at most 1/1024 of its value wide. */
const perOctave = 1024;
const firstOctave = Math.log2(linearBuckets);
/** Values from 2^32 ms (49 days) on share the last bucket; the maximum is still kept exactly. */
const lastOctave = 32;
const bucketCount = linearBuckets + (lastOctave - firstOctave) * perOctave;

/** The percentiles every view of a load shows. */
export const percentiles = [50, 90, 95, 99] as const;

export type LatencySummary = {
	readonly count: number;
	readonly min: number | undefined;
	readonly max: number | undefined;
	readonly mean: number | undefined;
	readonly p50: number | undefined;
	readonly p90: number | undefined;
	readonly p95: number | undefined;
	readonly p99: number | undefined;
};

/** One bar of a histogram drawn on screen: the values from `from` up to `to` (ms), and how many fell there. */
export type HistogramBar = {readonly from: number; readonly to: number; readonly count: number};

function indexOf(value: number): number {
	if (value < linearBuckets) {
		return value;
	}

	const octave = Math.floor(Math.log2(value));
	if (octave >= lastOctave) {
		return bucketCount - 1;
	}

	const width = 2 ** (octave - Math.log2(perOctave));
	return linearBuckets + (octave - firstOctave) * perOctave + Math.floor(value / width) - perOctave;
}

/** The lowest value and the width of bucket `index`. */
function boundsOf(index: number): {readonly low: number; readonly width: number} {
	if (index < linearBuckets) {
		return {low: index, width: 1};
	}

	const octave = firstOctave + Math.floor((index - linearBuckets) / perOctave);
	const width = 2 ** (octave - Math.log2(perOctave));
	return {low: 2 ** octave + ((index - linearBuckets) % perOctave) * width, width};
}

/**
Latencies in bounded memory (about 90 kB whatever the count): whole milliseconds counted in log
buckets, exact below 2048 ms and within 1/2048 of the value above, like HdrHistogram. Percentiles
are nearest-rank (the smallest value with at least p % of the values at or below it).
*/
export class LatencyHistogram {
	readonly #counts = new Uint32Array(bucketCount);
	#count = 0;
	#sum = 0;
	#min = Number.POSITIVE_INFINITY;
	#max = Number.NEGATIVE_INFINITY;

	get count(): number {
		return this.#count;
	}

	/** Counts one latency (ms; rounded to the millisecond, negative as 0). */
	record(ms: number): void {
		if (!Number.isFinite(ms)) {
			return;
		}

		const value = Math.max(0, Math.round(ms));
		this.#counts[indexOf(value)]!++;
		this.#count++;
		this.#sum += value;
		this.#min = Math.min(this.#min, value);
		this.#max = Math.max(this.#max, value);
	}

	/** The nearest-rank percentile `p` (0–100), undefined before any value. */
	percentile(p: number): number | undefined {
		if (this.#count === 0) {
			return undefined;
		}

		const rank = Math.max(1, Math.ceil((p / 100) * this.#count));
		if (rank >= this.#count) {
			return this.#max;
		}

		let seen = 0;
		for (let index = 0; index < bucketCount; index++) {
			seen += this.#counts[index]!;
			if (seen >= rank) {
				const {low, width} = boundsOf(index);
				// The middle of the bucket, never outside what was seen.
				return Math.min(this.#max, Math.max(this.#min, width === 1 ? low : Math.round(low + (width - 1) / 2)));
			}
		}

		return this.#max;
	}

	summary(): LatencySummary {
		const empty = this.#count === 0;
		return {
			count: this.#count,
			min: empty ? undefined : this.#min,
			max: empty ? undefined : this.#max,
			mean: empty ? undefined : this.#sum / this.#count,
			p50: this.percentile(50),
			p90: this.percentile(90),
			p95: this.percentile(95),
			p99: this.percentile(99),
		};
	}

	/** At most `bars` bars over the values seen, spaced logarithmically from the least to the most (fewer when the spread is small). */
	bars(bars: number): HistogramBar[] {
		if (this.#count === 0 || bars < 1) {
			return [];
		}

		const low = Math.max(1, this.#min);
		const high = Math.max(low + 1, this.#max + 1);
		const steps = Math.max(1, Math.min(bars, high - low));
		const edges = Array.from({length: steps + 1}, (_, index) => (index === steps ? high : Math.round(low * (high / low) ** (index / steps))));
		const result = edges.slice(0, -1).map((from, index) => ({from, to: edges[index + 1]!, count: 0}));
		for (let index = 0; index < bucketCount; index++) {
			const count = this.#counts[index]!;
			if (count === 0) {
				continue;
			}

			const {low: value} = boundsOf(index);
			const bar = result.findLast(candidate => candidate.from <= value) ?? result[0]!;
			bar.count += count;
		}

		return result.filter(bar => bar.to > bar.from);
	}
}

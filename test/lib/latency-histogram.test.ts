import {expect, test} from 'vitest';
import {LatencyHistogram} from '../../source/lib/latency-histogram.js';

/** Nearest rank over every value: what the histogram must agree with. */
function exactPercentile(values: readonly number[], p: number): number {
	const sorted = values.toSorted((a, b) => a - b);
	return sorted[Math.max(1, Math.ceil((p / 100) * sorted.length)) - 1]!;
}

function seeded(seed: number): () => number {
	let state = seed;
	return () => {
		state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
		return state / 2_147_483_648;
	};
}

test('empty: no percentiles, no bars', () => {
	const histogram = new LatencyHistogram();
	expect(histogram.summary()).toEqual({
		count: 0,
		min: undefined,
		max: undefined,
		mean: undefined,
		p50: undefined,
		p90: undefined,
		p95: undefined,
		p99: undefined,
	});
	expect(histogram.bars(10)).toEqual([]);
});

test('below 2048 ms every percentile is exact, nearest rank', () => {
	const random = seeded(7);
	const values = Array.from({length: 5000}, () => Math.floor(random() * 2000));
	const histogram = new LatencyHistogram();
	for (const value of values) {
		histogram.record(value);
	}

	for (const p of [0, 1, 50, 90, 95, 99, 99.9, 100]) {
		expect(histogram.percentile(p), `p${p}`).toBe(exactPercentile(values, p));
	}

	expect(histogram.summary()).toMatchObject({count: 5000, min: Math.min(...values), max: Math.max(...values)});
	expect(histogram.summary().mean).toBeCloseTo(values.reduce((sum, value) => sum + value, 0) / values.length, 9);
});

test('small samples: p50 of 1..10 is 5, p90 is 9, p99 is 10', () => {
	const histogram = new LatencyHistogram();
	for (let value = 10; value >= 1; value--) {
		histogram.record(value);
	}

	expect([histogram.percentile(50), histogram.percentile(90), histogram.percentile(95), histogram.percentile(99)]).toEqual([5, 9, 10, 10]);
});

test('above 2048 ms within 1/2048 of the value, up to days; min and max exact', () => {
	const random = seeded(11);
	const values = Array.from({length: 20_000}, () => Math.round(2 ** (random() * 32)) - 1);
	const histogram = new LatencyHistogram();
	for (const value of values) {
		histogram.record(value);
	}

	for (const p of [10, 50, 90, 95, 99]) {
		const exact = exactPercentile(values, p);
		expect(Math.abs(histogram.percentile(p)! - exact), `p${p} of ${exact}`).toBeLessThanOrEqual(Math.max(0.5, exact / 2048));
	}

	expect(histogram.summary().max).toBe(Math.max(...values));
	expect(histogram.summary().min).toBe(Math.min(...values));
});

test('fractions are rounded to the millisecond; negative and non-finite values are not latencies', () => {
	const histogram = new LatencyHistogram();
	histogram.record(1.4);
	histogram.record(1.6);
	histogram.record(-3);
	histogram.record(Number.NaN);
	histogram.record(Number.POSITIVE_INFINITY);
	expect(histogram.count).toBe(3);
	expect([histogram.summary().min, histogram.percentile(50), histogram.summary().max]).toEqual([0, 1, 2]);
});

test('bars: at most the number asked, log-spaced, every value in one bar', () => {
	const histogram = new LatencyHistogram();
	const values = [5, 8, 40, 41, 45, 300, 310, 2500, 9000, 9001];
	for (const value of values) {
		histogram.record(value);
	}

	const bars = histogram.bars(8);
	expect(bars.length).toBeLessThanOrEqual(8);
	expect(bars.reduce((sum, bar) => sum + bar.count, 0)).toBe(values.length);
	expect(bars[0]!.from).toBe(5);
	expect(bars.at(-1)!.to).toBe(9002);
	for (const [index, bar] of bars.entries()) {
		expect(bar.to).toBeGreaterThan(bar.from);
		if (index > 0) {
			expect(bar.from).toBe(bars[index - 1]!.to);
		}
	}

	// One value: one bar holding it.
	const one = new LatencyHistogram();
	one.record(120);
	expect(one.bars(10)).toEqual([{from: 120, to: 121, count: 1}]);
});

test('memory is flat: 100,000 values take no more than the first one did', () => {
	const histogram = new LatencyHistogram();
	histogram.record(1);
	// The buckets are one fixed array: nothing grows with the count.
	for (let index = 0; index < 100_000; index++) {
		histogram.record(index % 70_000);
	}

	expect(histogram.count).toBe(100_001);
	expect(histogram.percentile(100)).toBe(69_999);
});

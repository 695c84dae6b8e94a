import {describe, expect, test} from 'vitest';
import {addToBucket, bucketSummary, bucketTexts, emptyBucket} from '../../source/history/bucket.js';
import {seededRandom} from '../helpers/seeded-random.js';

const sample = (values: Array<number | null>) => ({min: values, mean: values, max: values, last: values});

describe('addToBucket and bucketSummary', () => {
	test('a pod that loses a GPU: min, mean and max keep every position, last is the newest sample alone, padded', () => {
		const bucket = emptyBucket();
		addToBucket(bucket, 1000, 1, 'RUNNING', sample([50, 10, 20]));
		addToBucket(bucket, 2000, 1, 'RUNNING', sample([70, null, 40]));
		addToBucket(bucket, 3000, 1, 'EXITED', sample([30, 0]));
		expect(bucket.state).toBe('EXITED');
		expect(bucketSummary(bucket)).toEqual({min: [30, 0, 20], mean: [50, 5, 30], max: [70, 10, 40], last: [30, 0, null]});
	});

	test('a sample older than the newest counts in min, mean and max but leaves last and the state', () => {
		const bucket = emptyBucket();
		addToBucket(bucket, 2000, 1, 'RUNNING', sample([10, 20]));
		addToBucket(bucket, 1000, 3, 'EXITED', {min: [1, 2], mean: [2, 4], max: [3, 30], last: [3, 5]});
		expect(bucket.count).toBe(4);
		expect(bucketSummary(bucket)).toEqual({min: [1, 2], mean: [4, 8], max: [10, 30], last: [10, 20]});
		expect(bucket.state).toBe('RUNNING');
	});

	test('a longer sample after a shorter one grows last to its length', () => {
		const bucket = emptyBucket();
		addToBucket(bucket, 1000, 1, undefined, sample([1]));
		addToBucket(bucket, 2000, 1, undefined, sample([2, 3, null]));
		expect(bucketSummary(bucket).last).toEqual([2, 3, null]);
	});
});

/** The lists-of-numbers-and-nulls bucket this one replaced (cdcbf03), as the reference its figures must equal. */
function referenceFold(summaries: ReadonlyArray<{at: number; count: number; state: string; summary: ReturnType<typeof sample>}>) {
	const min: Array<number | null> = [];
	const max: Array<number | null> = [];
	const sum: number[] = [];
	const counted: number[] = [];
	let last: Array<number | null> = [];
	let lastAt = Number.NEGATIVE_INFINITY;
	let state: string | undefined;
	let count = 0;
	for (const each of summaries) {
		const length = Math.max(each.summary.min.length, each.summary.last.length);
		while (min.length < length) {
			min.push(null);
			max.push(null);
			sum.push(0);
			counted.push(0);
		}

		for (let index = 0; index < length; index++) {
			const low = each.summary.min[index];
			if (low !== undefined && low !== null) {
				min[index] = min[index] === null || low < min[index]! ? low : min[index]!;
			}

			const high = each.summary.max[index];
			if (high !== undefined && high !== null) {
				max[index] = max[index] === null || high > max[index]! ? high : max[index]!;
			}

			const mean = each.summary.mean[index];
			if (mean !== undefined && mean !== null) {
				sum[index]! += mean * each.count;
				counted[index]! += each.count;
			}
		}

		count += each.count;
		if (each.at >= lastAt) {
			lastAt = each.at;
			state = each.state;
			last = Array.from({length}, (_, index) => each.summary.last[index] ?? null);
		}
	}

	const mean = sum.map((total, index) => (counted[index]! > 0 ? Math.round((total / counted[index]!) * 10_000) / 10_000 : null));
	const pad = (values: Array<number | null>) => [...values, ...Array.from({length: min.length - values.length}, () => null)];
	return {count, state, summary: {min, mean, max, last: pad(last)}};
}

test('random summaries (lengths that grow and shrink, nulls, negatives, fractions, older ones after newer) fold as the reference does, to the same stored texts', () => {
	const random = seededRandom(23);
	const value = () => {
		const roll = random();
		return roll < 0.15 ? null : roll < 0.3 ? Math.floor(random() * 100) : roll < 0.35 ? -random() * 5 : random() * 1000;
	};

	for (let round = 0; round < 500; round++) {
		const summaries = Array.from({length: 1 + Math.floor(random() * 15)}, () => {
			// Mostly one length for all four (as stored), sometimes each its own.
			const length = Math.floor(random() * 7);
			const figures = () => Array.from({length: random() < 0.8 ? length : Math.floor(random() * 7)}, value);
			return {
				at: Math.floor(random() * 10) * 1000,
				count: 1 + Math.floor(random() * 3),
				state: random() < 0.5 ? 'RUNNING' : 'EXITED',
				summary: {min: figures(), mean: figures(), max: figures(), last: figures()},
			};
		});
		const bucket = emptyBucket();
		for (const each of summaries) {
			addToBucket(bucket, each.at, each.count, each.state, each.summary);
		}

		const reference = referenceFold(summaries);
		expect(bucketSummary(bucket)).toEqual(reference.summary);
		// The texts maintenance stores are those of the reference's lists.
		const {min, mean, max, last} = reference.summary;
		expect(bucketTexts(bucket)).toEqual({min: JSON.stringify(min), mean: JSON.stringify(mean), max: JSON.stringify(max), last: JSON.stringify(last)});
		expect({count: bucket.count, state: bucket.state}).toEqual({count: reference.count, state: reference.state});
	}
});

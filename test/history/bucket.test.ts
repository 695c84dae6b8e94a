import {describe, expect, test} from 'vitest';
import {addToBucket, bucketSummary, emptyBucket} from '../../source/history/bucket.js';

const sample = (values: Array<number | null>) => ({min: values, mean: values, max: values, last: values});

describe('addToBucket and bucketSummary', () => {
	test('a pod that loses a GPU: min, mean and max keep every position, last is the newest sample alone, padded', () => {
		const bucket = emptyBucket();
		addToBucket(bucket, 1000, 1, 'RUNNING', sample([50, 10, 20]));
		addToBucket(bucket, 2000, 1, 'RUNNING', sample([70, null, 40]));
		addToBucket(bucket, 3000, 1, 'EXITED', sample([30, 0]));
		expect(bucket.last).toEqual([30, 0]);
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
		expect(bucket.last).toEqual([2, 3, null]);
		expect(bucketSummary(bucket).last).toEqual([2, 3, null]);
	});
});

import {expect, test} from 'vitest';
import {coldThresholdMs, createColdStartJudge} from '../../source/lib/cold-start.js';

test('before any warm job, a delay over 2 s is cold', () => {
	const judge = createColdStartJudge();
	expect(judge.judge(2500)).toBe(true);
	expect(judge.warmMedianMs()).toBeUndefined();
	expect(judge.judge(1500)).toBe(false);
	expect(judge.warmMedianMs()).toBe(1500);
});

test('warm jobs set the median, and a delay far above it is cold', () => {
	const judge = createColdStartJudge();
	for (const delay of [40, 60, 50, 55, 45]) {
		expect(judge.judge(delay)).toBe(false);
	}

	expect(judge.warmMedianMs()).toBe(50);
	// 3 × 50 = 150 ms is not enough: a cold start is also at least 1 s above the median.
	expect(judge.judge(900)).toBe(false);
	expect(judge.judge(1100)).toBe(true);
	// A cold job does not move the median.
	expect(judge.warmMedianMs()).toBe(52.5);
});

test('a slow endpoint needs three times its median', () => {
	expect(coldThresholdMs(2000)).toBe(6000);
	expect(coldThresholdMs(100)).toBe(1100);
	expect(coldThresholdMs(undefined)).toBe(2000);
});

test('the median is of the last warm delays only, and a seed counts as seen before', () => {
	const judge = createColdStartJudge({window: 3, seed: [10, 10, 10]});
	expect(judge.warmMedianMs()).toBe(10);
	for (const delay of [500, 500, 500]) {
		judge.judge(delay);
	}

	expect(judge.warmMedianMs()).toBe(500);
});

test('a job that waited behind others on a worker already seen is queued, not cold', () => {
	const judge = createColdStartJudge();
	for (const delay of [40, 60, 50]) {
		expect(judge.judge(delay, 'warm-1')).toBe(false);
	}

	// A saturated endpoint: the queue grows on the warm worker, and its delays are queueing.
	expect(judge.judge(12_000, 'warm-1')).toBe(false);
	// A worker started for the load: its first job waited far past the warm median.
	expect(judge.judge(15_000, 'new-2')).toBe(true);
	// Its next jobs are on a warm worker.
	expect(judge.judge(14_000, 'new-2')).toBe(false);
	// Without a worker id, the delay alone decides.
	expect(judge.judge(60_000)).toBe(true);
});

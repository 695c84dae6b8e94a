import {describe, expect, test} from 'vitest';
import {RateBudget} from '../../source/poll/rate-budget.js';

const graphql = {perWindow: 10, windowMs: 10_000, concurrency: 1, minIntervalMs: 1200};

describe('RateBudget', () => {
	test('requests are spaced by the least interval, counted from the start of one answered at once', () => {
		const budget = new RateBudget('graphql', graphql);
		expect(budget.tryAcquire(0)).toBe(0);
		budget.release(0, 0);
		expect(budget.tryAcquire(700)).toBe(500);
		expect(budget.tryAcquire(1200)).toBe(0);
	});

	test('after a slow answer, the next request waits the least interval from the answer: the service may have counted the first only then', () => {
		const budget = new RateBudget('graphql', graphql);
		expect(budget.tryAcquire(0)).toBe(0);
		// One at a time: nothing else goes while it is on the way.
		expect(budget.tryAcquire(2000)).toBe(Number.POSITIVE_INFINITY);
		budget.release(0, 3000);
		expect(budget.tryAcquire(3000)).toBe(1200);
		expect(budget.tryAcquire(4100)).toBe(100);
		expect(budget.tryAcquire(4200)).toBe(0);
	});

	test('the window counts a slow request from its answer', () => {
		const budget = new RateBudget('e1:status', {perWindow: 1, windowMs: 10_000, concurrency: 1});
		expect(budget.tryAcquire(0)).toBe(0);
		budget.release(0, 3000);
		// Free at 3 s + 10 s (+ the margin for its arrival), not at 10 s.
		expect(budget.tryAcquire(10_500)).toBeGreaterThan(2000);
	});
});

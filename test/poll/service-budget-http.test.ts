import {fetch} from 'undici';
import {afterEach, describe, expect, test} from 'vitest';
import {ApiError, parseRetryAfter} from '../../source/api/errors.js';
import {Scheduler, v2BudgetKey} from '../../source/poll/scheduler.js';
import {closeRestSims, startRestSim} from '../sim/rest/rest-client.js';

afterEach(closeRestSims);

describe('the v2 budget against the simulator over HTTP', () => {
	test("many reads of /v2/pods through the scheduler, planned from the simulator's own headers: 0 × 429, within half of the minute", async () => {
		// 600 a minute: podtop's half is 300, about 200 ms apart; the day is roomy so the minute sets the pace.
		const sim = await startRestSim({restQuota: {minute: 600, hour: 100_000, day: 10_000_000}});
		const scheduler = new Scheduler();
		const statuses: number[] = [];
		const read = async () =>
			scheduler.submit({
				budget: v2BudgetKey,
				priority: 'visible',
				idempotent: true,
				async run(signal) {
					const response = await fetch(`${sim.url}/v2/pods`, {
						headers: {authorization: `Bearer ${sim.apiKey}`},
						signal: AbortSignal.any([signal, AbortSignal.timeout(20_000)]),
					});
					// The v2 client's onAnswer hook, as the composition root connects it.
					scheduler.observe(v2BudgetKey, {status: response.status, headers: response.headers});
					statuses.push(response.status);
					const body = (await response.json()) as {pods: unknown[]};
					if (response.status === 429) {
						throw new ApiError('rate-limited', 'v2: HTTP 429', {status: 429, retryAfterMs: parseRetryAfter(response.headers.get('retry-after'))});
					}

					return body.pods.length;
				},
			});
		const counts = await Promise.all(Array.from({length: 25}, read));
		expect(counts.every(count => count > 0)).toBe(true);
		expect(statuses).toHaveLength(25);
		expect(statuses.filter(status => status !== 200)).toEqual([]);
		const budget = scheduler.snapshot().v2!;
		expect(budget.windows?.map(window => window.name)).toEqual(['minute', 'hour', 'day']);
		// The simulator counted them: what is left of its minute is what podtop's 25 left, and podtop's own count says the same.
		expect(budget.windows![0]).toEqual({name: 'minute', limit: 600, remaining: 575});
		expect(budget.slowed).toBeUndefined();
		scheduler.stop();
	});
});

import {afterEach, beforeEach, describe, expect, test, vi} from 'vitest';
import {ApiError} from '../../source/api/errors.js';
import {Scheduler, v2BudgetKey, type Priority} from '../../source/poll/scheduler.js';
import {RateWindows, type RestQuota} from '../../source/sim/rest/rate-windows.js';

const noon = Date.UTC(2026, 11, 1, 12, 0, 0);

beforeEach(() => {
	vi.useFakeTimers({now: noon});
});

afterEach(() => {
	vi.useRealTimers();
});

/**
A fake v2 service on the fake clock, answering as the simulator does (its own rate windows), and
calling the scheduler's hook the way the v2 client does: after every answer, before returning or throwing.
*/
function fakeService(scheduler: Scheduler, quota: RestQuota) {
	const windows = new RateWindows(quota, () => Date.now());
	const sent: Array<{at: number; label: string; status: number}> = [];
	const read = async (label: string, priority: Priority = 'visible') =>
		scheduler.submit({
			budget: v2BudgetKey,
			priority,
			idempotent: true,
			async run() {
				const admission = windows.admit('owner');
				const status = admission.ok ? 200 : 429;
				sent.push({at: Date.now(), label, status});
				const headers = new Headers(admission.headers);
				if (admission.retryAfter) {
					headers.set('retry-after', String(admission.retryAfter));
				}

				scheduler.observe(v2BudgetKey, {status, headers});
				if (!admission.ok) {
					throw new ApiError('rate-limited', 'v2: HTTP 429', {status, retryAfterMs: admission.retryAfter! * 1000});
				}

				return label;
			},
		});
	return {sent, read};
}

describe('Scheduler: the v2 budget', () => {
	test('half of 60 a minute: a hundred reads queued at once go 30 a minute, about 2 s apart, with no 429', async () => {
		const scheduler = new Scheduler({now: () => Date.now()});
		const service = fakeService(scheduler, {minute: 60, hour: 100_000, day: 1_000_000});
		const reads = Array.from({length: 100}, async (_, index) => service.read(`r${index}`));
		await vi.advanceTimersByTimeAsync(120_000);
		expect(service.sent.filter(({status}) => status === 429)).toEqual([]);
		const firstMinute = service.sent.filter(({at}) => at < noon + 60_000).length;
		expect(firstMinute).toBeLessThanOrEqual(30);
		expect(firstMinute).toBeGreaterThanOrEqual(28);
		expect(service.sent.filter(({at}) => at >= noon + 60_000 && at < noon + 120_000).length).toBeLessThanOrEqual(30);
		expect(scheduler.snapshot().v2).toMatchObject({key: 'v2', windows: [{name: 'minute', limit: 60}, {name: 'hour'}, {name: 'day'}]});
		scheduler.stop();
		await Promise.allSettled(reads);
	});

	test('what is on screen goes first: a visible read queued after background ones is the next to go', async () => {
		const scheduler = new Scheduler({now: () => Date.now()});
		const service = fakeService(scheduler, {minute: 60, hour: 100_000, day: 1_000_000});
		// More than the opening burst lets go at once.
		const reads = ['first', ...Array.from({length: 12}, (_, index) => `b${index + 1}`)].map(async label => service.read(label, 'background'));
		await vi.advanceTimersByTimeAsync(10);
		const sentBefore = service.sent.length;
		expect(sentBefore).toBeLessThan(13);
		reads.push(service.read('on screen', 'visible'));
		await vi.advanceTimersByTimeAsync(10_000);
		const labels = service.sent.map(({label}) => label);
		expect(labels.slice(0, sentBefore)).toEqual(['first', ...Array.from({length: sentBefore - 1}, (_, index) => `b${index + 1}`)]);
		expect(labels[sentBefore]).toBe('on screen');
		expect(labels[sentBefore + 1]).toBe(`b${sentBefore}`);
		scheduler.stop();
		await Promise.allSettled(reads);
	});

	test('a 429 waits the longest of Retry-After and every spent window, retries a read once that passed, and never loops', async () => {
		const scheduler = new Scheduler({now: () => Date.now()});
		const attempts: number[] = [];
		const read = scheduler.submit({
			budget: v2BudgetKey,
			priority: 'visible',
			idempotent: true,
			async run() {
				attempts.push(Date.now());
				if (attempts.length === 1) {
					const headers = new Headers({
						ratelimit: '"minute";r=0;t=20, "hour";r=0;t=90, "day";r=49000;t=40000',
						'ratelimit-policy': '"minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400',
						'retry-after': '20',
					});
					scheduler.observe(v2BudgetKey, {status: 429, headers});
					throw new ApiError('rate-limited', 'v2: HTTP 429', {status: 429, retryAfterMs: 20_000});
				}

				scheduler.observe(v2BudgetKey, {
					status: 200,
					headers: new Headers({ratelimit: '"minute";r=59;t=60, "hour";r=2999;t=3600', 'ratelimit-policy': '"minute";q=60;w=60, "hour";q=3000;w=3600'}),
				});
				return 'ok';
			},
		});
		await vi.advanceTimersByTimeAsync(60_000);
		expect(attempts).toHaveLength(1);
		expect(scheduler.snapshot().v2?.slowed).toMatchObject({reason: 'rate-limited'});
		// The hour's window reset (90 s, and a second for rounding), not Retry-After's 20 s.
		await vi.advanceTimersByTimeAsync(32_000);
		await expect(read).resolves.toBe('ok');
		expect(attempts).toHaveLength(2);
		expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(91_000);
		scheduler.stop();
	});

	test('a service that answers nothing but empty 429s: a read is tried a bounded number of times, ever further apart', async () => {
		const scheduler = new Scheduler({now: () => Date.now(), random: () => 1});
		const attempts: number[] = [];
		const read = scheduler.submit({
			budget: v2BudgetKey,
			priority: 'visible',
			idempotent: true,
			async run() {
				attempts.push(Date.now());
				scheduler.observe(v2BudgetKey, {status: 429, headers: new Headers()});
				throw new ApiError('rate-limited', 'v2: HTTP 429', {status: 429});
			},
		});
		const settled = read.catch((error: unknown) => error);
		await vi.advanceTimersByTimeAsync(10 * 60_000);
		expect(await settled).toBeInstanceOf(ApiError);
		expect(attempts).toHaveLength(6);
		const gaps = attempts.slice(1).map((at, index) => at - attempts[index]!);
		expect(gaps.every((gap, index) => index === 0 || gap >= gaps[index - 1]!)).toBe(true);
		scheduler.stop();
	});

	test('a malformed RateLimit header: conservative spacing (3.456 s at half share), one at a time, and the reason published', async () => {
		const scheduler = new Scheduler({now: () => Date.now()});
		const sent: number[] = [];
		const reads = Array.from({length: 5}, async () =>
			scheduler.submit({
				budget: v2BudgetKey,
				priority: 'visible',
				idempotent: true,
				async run() {
					sent.push(Date.now());
					scheduler.observe(v2BudgetKey, {status: 200, headers: new Headers({ratelimit: '"minute";r=lots', 'ratelimit-policy': '"minute";q=60;w=60'})});
				},
			}),
		);
		await vi.advanceTimersByTimeAsync(20_000);
		expect(sent).toHaveLength(5);
		expect(sent.slice(1).map((at, index) => at - sent[index]!)).toEqual([3456, 3456, 3456, 3456]);
		expect(scheduler.snapshot().v2).toMatchObject({concurrency: 1, slowed: {reason: 'unreadable'}});
		scheduler.stop();
		await Promise.allSettled(reads);
	});

	test('observe() on a hostile header getter does not throw', () => {
		const scheduler = new Scheduler({now: () => Date.now()});
		expect(() => {
			scheduler.observe(v2BudgetKey, {
				status: 200,
				headers: {
					get() {
						throw new Error('hostile');
					},
				},
			});
		}).not.toThrow();
		scheduler.stop();
	});
});

import {describe, expect, test, vi} from 'vitest';
import {ApiError} from '../../source/api/errors.js';
import {Scheduler} from '../../source/poll/scheduler.js';
import {defaultBudgetSettings} from '../../source/poll/budget-limits.js';

const sleep = async (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

describe('Scheduler', () => {
	test("keeps each budget's window: a tenth of /status on one endpoint is 200 per 10 s", async () => {
		const scheduler = new Scheduler();
		let calls = 0;
		const results = Array.from({length: 205}, async () =>
			scheduler.submit({budget: 'e1:status', priority: 'visible', idempotent: true, run: async () => ++calls}),
		);
		await sleep(100);
		expect(calls).toBe(200);
		expect(scheduler.snapshot()['e1:status']).toMatchObject({used: 200, allowed: 200, windowMs: 10_000});
		scheduler.stop();
		await Promise.allSettled(results);
	});

	test('budgets are published when one moved by a quarter of what it allows, appeared or began backing off; not for a smaller wobble', async () => {
		const scheduler = new Scheduler({limitFor: () => ({perWindow: 8, windowMs: 10_000, concurrency: 8})});
		const send = async (budget: string, times: number) =>
			Promise.all(Array.from({length: times}, async () => scheduler.submit({budget, priority: 'background', idempotent: true, run: async () => 1})));
		await send('e1:health', 1);
		const published = scheduler.snapshot();
		expect(scheduler.movedSince(published, 1)).toBe(false);
		// One more of 8 is an eighth: not shown.
		await send('e1:health', 1);
		expect(scheduler.movedSince(published, 1)).toBe(false);
		// A second more makes a quarter.
		await send('e1:health', 1);
		expect(scheduler.movedSince(published, 1)).toBe(true);
		const again = scheduler.snapshot();
		expect(scheduler.movedSince(again, 1)).toBe(false);
		// A new budget.
		await send('e2:health', 1);
		expect(scheduler.movedSince(again, 1)).toBe(true);
		const both = scheduler.snapshot();
		expect(scheduler.movedSince(both, 2)).toBe(false);
		// A 429 starts a backoff.
		await scheduler
			.submit({
				budget: 'e2:health',
				priority: 'background',
				idempotent: false,
				async run() {
					throw new ApiError('rate-limited', 'health: HTTP 429', {status: 429, retryAfterMs: 5000});
				},
			})
			.catch(() => undefined);
		expect(scheduler.movedSince(both, 2)).toBe(true);
		scheduler.stop();
	});

	test('a slow request counts from when its answer came, so a window never holds more arrivals than its budget', async () => {
		let clock = 0;
		const scheduler = new Scheduler({now: () => clock, limitFor: () => ({perWindow: 2, windowMs: 10_000, concurrency: 5})});
		const started: number[] = [];
		let finishSlow!: () => void;
		const slow = new Promise<void>(resolve => {
			finishSlow = resolve;
		});
		const submit = async (wait?: Promise<void>) =>
			scheduler.submit({
				budget: 'e1:status',
				priority: 'visible',
				idempotent: true,
				async run() {
					started.push(clock);
					await wait;
				},
			});
		// Two at 0: the first answered at once, the second only at 3 s (it may have arrived then).
		const all = [submit(), submit(slow)];
		await sleep(5);
		clock = 3000;
		finishSlow();
		await sleep(5);
		// At 10.3 s the first's slot is free, the second's is not until 13.3 s: one more goes, not two.
		clock = 10_300;
		all.push(submit(), submit());
		await sleep(5);
		expect(started).toEqual([0, 0, 10_300]);
		scheduler.stop();
		await Promise.allSettled(all);
	});

	test('budgets are per endpoint and operation', async () => {
		const scheduler = new Scheduler({settings: {...defaultBudgetSettings, healthPerWindow: 1}});
		const ran: string[] = [];
		const submit = async (budget: string) => scheduler.submit({budget, priority: 'visible', idempotent: true, run: async () => ran.push(budget)});
		const all = [submit('a:health'), submit('a:health'), submit('b:health')];
		await sleep(20);
		expect(ran.sort()).toEqual(['a:health', 'b:health']);
		scheduler.stop();
		await Promise.allSettled(all);
	});

	test("runs a user's action before what is on screen, and that before background work", async () => {
		// One request at a time, so the queue decides who goes next.
		const scheduler = new Scheduler({limitFor: () => ({perWindow: 100, windowMs: 10_000, concurrency: 1})});
		const order: string[] = [];
		let open!: () => void;
		const gate = new Promise<void>(resolve => {
			open = resolve;
		});
		const task = async (name: string, priority: 'action' | 'visible' | 'background', wait?: Promise<void>) =>
			scheduler.submit({
				budget: 'graphql',
				priority,
				idempotent: true,
				async run() {
					order.push(name);
					await wait;
				},
			});
		const all = [task('first', 'background', gate), task('background', 'background'), task('visible', 'visible'), task('action', 'action')];
		await sleep(10);
		expect(order).toEqual(['first']);
		open();
		await Promise.all(all);
		expect(order).toEqual(['first', 'action', 'visible', 'background']);
	});

	test('coalesces requests for the same resource: one flight, everyone gets the answer', async () => {
		const scheduler = new Scheduler();
		let calls = 0;
		const run = async () => {
			calls++;
			await sleep(20);
			return {answer: calls};
		};

		const [a, b, c] = await Promise.all(
			[1, 2, 3].map(async () => scheduler.submit({budget: 'e:health', coalesce: 'health:e', priority: 'visible', idempotent: true, run})),
		);
		expect(calls).toBe(1);
		expect(a).toBe(b);
		expect(b).toBe(c);
		await scheduler.submit({budget: 'e:health', coalesce: 'health:e', priority: 'visible', idempotent: true, run});
		expect(calls).toBe(2);
	});

	test('honours Retry-After on 429 for the whole budget, then retries a read; once it passed, the budget waits no longer', async () => {
		vi.useFakeTimers();
		try {
			const scheduler = new Scheduler({now: () => Date.now()});
			const times: number[] = [];
			let first = true;
			const value = scheduler.submit({
				budget: 'e:status',
				priority: 'visible',
				idempotent: true,
				async run() {
					times.push(Date.now());
					if (first) {
						first = false;
						throw new ApiError('rate-limited', 'slow down', {status: 429, retryAfterMs: 300});
					}

					return 'ok';
				},
			});
			await vi.advanceTimersByTimeAsync(0);
			// Another request of the same budget, sent during the wait, waits too.
			let otherRan = false;
			const other = scheduler.submit({
				budget: 'e:status',
				priority: 'visible',
				idempotent: true,
				async run() {
					otherRan = true;
				},
			});
			await vi.advanceTimersByTimeAsync(299);
			expect(times).toHaveLength(1);
			expect(otherRan).toBe(false);
			await vi.advanceTimersByTimeAsync(1);
			expect(times).toHaveLength(2);
			expect(times[1]! - times[0]!).toBe(300);
			expect(otherRan).toBe(true);
			await expect(value).resolves.toBe('ok');
			await other;
			// Past the wait, a request goes as it is submitted: no timer stands between it and the service.
			let laterRan = false;
			const later = scheduler.submit({
				budget: 'e:status',
				priority: 'visible',
				idempotent: true,
				async run() {
					laterRan = true;
					return 'later';
				},
			});
			expect(laterRan).toBe(true);
			expect(vi.getTimerCount()).toBe(0);
			await expect(later).resolves.toBe('later');
			scheduler.stop();
		} finally {
			vi.useRealTimers();
		}
	});

	test('without Retry-After it backs off exponentially with full jitter', async () => {
		const delays: number[] = [];
		const scheduler = new Scheduler({random: () => 1});
		let attempt = 0;
		const started = performance.now();
		await scheduler.submit({
			budget: 'e:status',
			priority: 'visible',
			idempotent: true,
			async run() {
				delays.push(performance.now() - started);
				if (attempt++ < 2) {
					throw new ApiError('rate-limited', 'slow down', {status: 429});
				}
			},
		});
		// random() = 1 makes the jitter its ceiling: 1 s, then 2 s.
		expect(delays[1]! - delays[0]!).toBeGreaterThanOrEqual(990);
		expect(delays[2]! - delays[1]!).toBeGreaterThanOrEqual(1990);
	}, 10_000);

	test('never retries a write (run, cancel, retry, purge-queue, mutations)', async () => {
		const scheduler = new Scheduler();
		for (const error of [
			new ApiError('server', 'boom', {status: 500}),
			new ApiError('network', 'reset'),
			new ApiError('timeout', 'slow'),
			new ApiError('rate-limited', 'no', {status: 429, retryAfterMs: 10}),
		]) {
			let calls = 0;
			await expect(
				scheduler.submit({
					budget: 'e:run',
					priority: 'action',
					idempotent: false,
					async run() {
						calls++;
						throw error;
					},
				}),
			).rejects.toBe(error);
			expect(calls).toBe(1);
		}
	});

	test('retries a read after a 5xx, then gives up and reports', async () => {
		const scheduler = new Scheduler({random: () => 0});
		let calls = 0;
		await expect(
			scheduler.submit({
				budget: 'e:health',
				priority: 'visible',
				idempotent: true,
				async run() {
					calls++;
					throw new ApiError('server', 'down', {status: 503});
				},
			}),
		).rejects.toMatchObject({kind: 'server'});
		expect(calls).toBe(2);
	});

	test('the concurrency cap holds requests until one finishes', async () => {
		const scheduler = new Scheduler({limitFor: () => ({perWindow: 100, windowMs: 10_000, concurrency: 2})});
		let running = 0;
		let peak = 0;
		await Promise.all(
			Array.from({length: 6}, async () =>
				scheduler.submit({
					budget: 'e:status',
					priority: 'visible',
					idempotent: true,
					async run() {
						running++;
						peak = Math.max(peak, running);
						await sleep(10);
						running--;
					},
				}),
			),
		);
		expect(peak).toBe(2);
	});

	test('a share of the published limits sets the caps: 0.01 of /status is 4 at once, of /cancel 1', () => {
		const scheduler = new Scheduler({settings: {...defaultBudgetSettings, share: 0.01}});
		void scheduler.submit({budget: 'e:status', priority: 'visible', idempotent: true, run: async () => undefined});
		void scheduler.submit({budget: 'e:cancel', priority: 'action', idempotent: false, run: async () => undefined});
		const snapshot = scheduler.snapshot();
		expect(snapshot['e:status']).toMatchObject({allowed: 20, concurrency: 4});
		expect(snapshot['e:cancel']).toMatchObject({allowed: 1, concurrency: 1});
		scheduler.stop();
	});

	test('fifty requests in flight, each listening to its signal (as undici does): no listener warning, and stop() aborts them all', async () => {
		const scheduler = new Scheduler();
		const warnings: string[] = [];
		const onWarning = (warning: Error) => {
			warnings.push(warning.message);
		};

		process.on('warning', onWarning);
		try {
			const inFlight = Array.from({length: 50}, async (_, index) =>
				scheduler.submit({
					budget: `e${index}:health`,
					priority: 'background',
					idempotent: true,
					run: async signal =>
						new Promise((_, reject) => {
							signal.addEventListener('abort', () => {
								reject(new ApiError('aborted', 'stopped'));
							});
						}),
				}),
			);
			await sleep(5);
			scheduler.stop();
			const settled = await Promise.allSettled(inFlight);
			expect(settled.every(result => result.status === 'rejected' && (result.reason as ApiError).kind === 'aborted')).toBe(true);
			await sleep(5);
			expect(warnings).toEqual([]);
		} finally {
			process.off('warning', onWarning);
		}
	});

	test('stop() aborts requests in flight and rejects the queue', async () => {
		const scheduler = new Scheduler({settings: {...defaultBudgetSettings, graphqlPerWindow: 1}});
		let aborted = false;
		const inFlight = scheduler.submit({
			budget: 'graphql',
			priority: 'visible',
			idempotent: true,
			run: async signal =>
				new Promise((_, reject) => {
					signal.addEventListener('abort', () => {
						aborted = true;
						reject(new ApiError('aborted', 'stopped'));
					});
				}),
		});
		const queued = scheduler.submit({budget: 'graphql', priority: 'visible', idempotent: true, run: async () => 'never'});
		await sleep(5);
		scheduler.stop();
		await expect(inFlight).rejects.toMatchObject({kind: 'aborted'});
		await expect(queued).rejects.toMatchObject({kind: 'aborted'});
		expect(aborted).toBe(true);
	});
});

import {afterEach, beforeEach, describe, expect, test, vi} from 'vitest';
import {ApiError} from '../../source/api/errors.js';
import {Scheduler, v2BudgetKey, type Priority} from '../../source/poll/scheduler.js';
import {RateWindows, defaultRestQuota} from '../../source/sim/rest/rate-windows.js';

const noon = Date.UTC(2026, 11, 1, 12, 0, 0);

beforeEach(() => {
	vi.useFakeTimers({now: noon});
});

afterEach(() => {
	vi.useRealTimers();
});

type Sent = {readonly at: number; readonly label: string; readonly status: number; readonly podtop: number};

/** The service's windows as the simulator keeps them (one key owner), on the fake clock, and what reached it. */
function fakeKey() {
	const windows = new RateWindows(defaultRestQuota, () => Date.now());
	const sent: Sent[] = [];
	/** A podtop on this key: its own scheduler, its reads answered as the v2 client hears them. */
	const podtop = (podtopIndex = 0) => {
		const scheduler = new Scheduler({now: () => Date.now()});
		const read = async (label: string, priority: Priority = 'visible') =>
			scheduler.submit({
				budget: v2BudgetKey,
				priority,
				coalesce: label,
				idempotent: true,
				async run() {
					const admission = windows.admit('owner');
					const status = admission.ok ? 200 : 429;
					sent.push({at: Date.now(), label, status, podtop: podtopIndex});
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
		return {scheduler, read};
	};

	return {sent, podtop};
}

/** A dashboard's polls: each list read again as soon as its last read came back, for as long as the test runs. */
function pollForever(read: (label: string, priority?: Priority) => Promise<string>, labels: readonly string[]) {
	const stopped = new AbortController();
	const loops = labels.map(async label => {
		while (!stopped.signal.aborted) {
			await read(label, label === 'endpoints' ? 'background' : 'visible').catch(() => undefined);
		}
	});
	return async () => {
		stopped.abort();
		await Promise.allSettled(loops);
	};
}

const perMinute = (sent: readonly Sent[]) => {
	const counts: number[] = [];
	for (const {at} of sent) {
		const minute = Math.floor((at - noon) / 60_000);
		counts[minute] = (counts[minute] ?? 0) + 1;
	}

	return counts;
};

describe("the v2 budget's burst: a fresh session's first reads at once, then the share", () => {
	test('endpoints, pods and GPU types are the first three requests, all sent before the clock moves', async () => {
		const key = fakeKey();
		const {scheduler, read} = key.podtop();
		const reads = [read('endpoints', 'background'), read('pods'), read('gpuTypes')];
		await vi.advanceTimersByTimeAsync(0);
		expect(key.sent.map(({label, at}) => [label, at])).toEqual([
			['endpoints', noon],
			['pods', noon],
			['gpuTypes', noon],
		]);
		await expect(Promise.all(reads)).resolves.toHaveLength(3);
		scheduler.stop();
	});

	test('polled without pause for five minutes: never more than its share of 30 a minute, spread after the burst, 0 × 429', async () => {
		const key = fakeKey();
		const {scheduler, read} = key.podtop();
		const stop = pollForever(read, ['endpoints', 'pods', 'gpuTypes', 'workers', 'releases']);
		await vi.advanceTimersByTimeAsync(5 * 60_000);
		scheduler.stop();
		await stop();
		expect(key.sent.filter(({status}) => status !== 200)).toEqual([]);
		const minutes = perMinute(key.sent);
		expect(Math.max(...minutes)).toBeLessThanOrEqual(30);
		// It uses its share rather than starving: at the default quota the hour's half (1,500, 25 a minute) sets the pace after the first minute.
		expect(Math.min(...minutes.slice(0, -1))).toBeGreaterThanOrEqual(24);
		// The first and the burst of six at once; under constant demand the burst never returns.
		const atNoon = key.sent.filter(({at}) => at === noon).length;
		expect(atNoon).toBe(7);
		const after = key.sent.slice(atNoon - 1);
		const gaps = after.slice(1).map(({at}, index) => at - after[index]!.at);
		expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1500);
	});

	test('after an idle spell the burst comes back, and the minute still holds its share', async () => {
		const key = fakeKey();
		const {scheduler, read} = key.podtop();
		const first = Array.from({length: 20}, async (_, index) => read(`a${index}`));
		await vi.advanceTimersByTimeAsync(45_000);
		await Promise.all(first);
		const before = key.sent.length;
		// Twenty reads: seven at once, thirteen about 2.6 s apart.
		expect(before).toBe(20);
		const lastAt = key.sent.at(-1)!.at;
		// Quiet for 30 s (more than seven gaps), then a pane opens and asks for three lists.
		await vi.advanceTimersByTimeAsync(lastAt + 30_000 - Date.now());
		const openedAt = Date.now();
		const second = ['b0', 'b1', 'b2'].map(async label => read(label));
		await vi.advanceTimersByTimeAsync(0);
		expect(key.sent.slice(before).map(({at}) => at)).toEqual([openedAt, openedAt, openedAt]);
		await Promise.all(second);
		// Asked for more than the burst, the rest waits for the spreading, and the minute stays within 30.
		const third = Array.from({length: 40}, async (_, index) => read(`c${index}`));
		await vi.advanceTimersByTimeAsync(3 * 60_000);
		await Promise.all(third);
		expect(Math.max(...perMinute(key.sent))).toBeLessThanOrEqual(30);
		expect(key.sent.filter(({status}) => status !== 200)).toEqual([]);
		scheduler.stop();
	});

	test('three podtops on one key, each bursting at start and polling without pause: the key stays under its quota, 0 × 429', async () => {
		const key = fakeKey();
		const podtops = [0, 1, 2].map(index => key.podtop(index));
		const stops = podtops.map(({read}) => pollForever(read, ['endpoints', 'pods', 'gpuTypes', 'workers', 'releases']));
		await vi.advanceTimersByTimeAsync(5 * 60_000);
		for (const {scheduler} of podtops) {
			scheduler.stop();
		}

		await Promise.all(stops.map(async stop => stop()));
		expect(key.sent.filter(({status}) => status !== 200)).toEqual([]);
		const minutes = perMinute(key.sent);
		expect(Math.max(...minutes)).toBeLessThan(60);
		// Each opened at once (its first and some of its burst at noon), and each kept within its own half.
		for (const index of [0, 1, 2]) {
			const own = key.sent.filter(({podtop}) => podtop === index);
			expect(own.filter(({at}) => at === noon).length).toBeGreaterThanOrEqual(3);
			expect(Math.max(...perMinute(own))).toBeLessThanOrEqual(30);
		}
	});
});

import {describe, expect, test} from 'vitest';
import {readRateLimitHeaders} from '../../source/api/rate-limit-headers.js';
import {ServiceBudget} from '../../source/poll/service-budget.js';
import {RateWindows, type RestQuota} from '../../source/sim/rest/rate-windows.js';

const noon = Date.UTC(2026, 11, 1, 12, 0, 0);

/** The simulator's own rate windows as the service, on a fake clock: the exact headers the service sends. */
function service(quota: RestQuota) {
	let now = noon;
	const windows = new RateWindows(quota, () => now);
	return {
		get now() {
			return now;
		},
		set now(value: number) {
			now = value;
		},
		admit: () => windows.admit('owner'),
	};
}

const answer = (headers: Record<string, string>) => readRateLimitHeaders(new Headers(headers), noon);

/**
Podtop's budget against the service for `ms` of fake time: whenever the budget allows, one request,
answered at once; `other` (another tool on the key) may send its own at given times. Returns podtop's sends and 429s.
*/
function drive(budget: ServiceBudget, sim: ReturnType<typeof service>, ms: number, other: (now: number) => number = () => 0) {
	const sent: number[] = [];
	let refused = 0;
	const end = sim.now + ms;
	let otherAt = sim.now;
	while (sim.now < end) {
		// The other tool's requests up to now, in the service's count first.
		for (; otherAt <= sim.now; otherAt += 100) {
			const previous = sim.now;
			sim.now = otherAt;
			for (let index = other(otherAt); index > 0; index--) {
				sim.admit();
			}

			sim.now = previous;
		}

		const wait = budget.tryAcquire(sim.now);
		if (wait === 0) {
			const admission = sim.admit();
			sent.push(sim.now);
			refused += admission.ok ? 0 : 1;
			budget.observe(
				answer({...admission.headers, ...(admission.retryAfter ? {'retry-after': String(admission.retryAfter)} : {})}),
				admission.ok ? 200 : 429,
				sim.now,
			);
			if (!admission.ok) {
				budget.rateLimited(sim.now, admission.retryAfter! * 1000);
			}

			budget.release();
		} else {
			sim.now += Math.min(wait, 100);
		}
	}

	return {sent, refused};
}

/** Podtop's requests per minute of the service's clock. */
const perMinute = (sent: readonly number[]) => {
	const counts = new Map<number, number>();
	for (const at of sent) {
		const minute = Math.floor((at - noon) / 60_000);
		counts.set(minute, (counts.get(minute) ?? 0) + 1);
	}

	return [...counts.values()];
};

describe('ServiceBudget (v2, planned inside the service windows)', () => {
	test('at half share of 60 a minute: at most 30 a minute, spread over it (about 2 s apart) after the opening burst, never a 429', () => {
		const sim = service({minute: 60, hour: 100_000, day: 1_000_000});
		const budget = new ServiceBudget('v2', 0.5);
		const {sent, refused} = drive(budget, sim, 5 * 60_000);
		expect(refused).toBe(0);
		const minutes = perMinute(sent);
		expect(Math.max(...minutes)).toBeLessThanOrEqual(30);
		// It uses its share rather than starving: the first request of each window finds no budget left over from the last.
		expect(Math.min(...minutes.slice(1, -1))).toBeGreaterThanOrEqual(27);
		// A fresh session's first and the burst (a fifth of 30) at once, seven; then spread, not a burst then a wall:
		// under constant demand the burst never comes back, no two requests closer than 1.5 s, none further apart than 4 s.
		expect(sent.slice(0, 7)).toEqual(Array.from({length: 7}, () => noon));
		expect(sent[7]).toBeGreaterThan(noon + 1500);
		const gaps = sent.slice(7).map((at, index) => at - sent[index + 6]!);
		expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1500);
		expect(Math.max(...gaps)).toBeLessThanOrEqual(4000);
		expect(budget.snapshot(sim.now).slowed).toBeUndefined();
	});

	test('the tightest window sets the pace: at half of 3,000 an hour, about 25 a minute however roomy the minute', () => {
		const sim = service({minute: 1000, hour: 3000, day: 1_000_000});
		const budget = new ServiceBudget('v2', 0.5);
		const {sent, refused} = drive(budget, sim, 10 * 60_000);
		expect(refused).toBe(0);
		// 1,500 over the hour: 2.4 s apart (the first minute has the opening burst of six besides).
		const [first, ...rest] = perMinute(sent);
		expect(first).toBeLessThanOrEqual(26 + 6);
		expect(Math.max(...rest)).toBeLessThanOrEqual(26);
		expect(sent.length).toBeGreaterThan(240);
	});

	test('the quota shrinking under podtop (another tool spends 40 of 60 early in each minute): it takes half of what the other left, says why, and never meets a 429', () => {
		const sim = service({minute: 60, hour: 100_000, day: 1_000_000});
		const budget = new ServiceBudget('v2', 0.5);
		// Two and a half minutes: the last look is in the middle of a window the other tool has spent from.
		const {sent, refused} = drive(budget, sim, 150_000, at => ((at - noon) % 60_000 === 3000 ? 40 : 0));
		expect(refused).toBe(0);
		// Alone it sends 30 a minute (above); here half of the 20 the other tool leaves.
		const minutes = perMinute(sent);
		expect(Math.max(...minutes)).toBeLessThanOrEqual(10);
		expect(Math.min(...minutes.slice(0, -1))).toBeGreaterThanOrEqual(9);
		const snapshot = budget.snapshot(sim.now);
		expect(snapshot.slowed).toEqual({reason: 'others', window: 'minute'});
		expect(snapshot.windows?.[0]).toMatchObject({name: 'minute', limit: 60});
		expect(snapshot.windows![0]!.remaining).toBeLessThan(20);
	});

	test('a 429 waits the longest of Retry-After and every window with nothing left', () => {
		const budget = new ServiceBudget('v2', 0.5);
		const now = noon;
		expect(budget.tryAcquire(now)).toBe(0);
		budget.observe(
			answer({
				ratelimit: '"minute";r=0;t=12, "hour";r=0;t=1800, "day";r=100;t=40000',
				'ratelimit-policy': '"minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400',
				'retry-after': '12',
			}),
			429,
			now,
		);
		budget.rateLimited(now, 12_000);
		budget.release();
		// The hour's window, not Retry-After's 12 s (and a second for the whole-seconds rounding).
		expect(budget.waitMs(now)).toBe(1_801_000);
		expect(budget.snapshot(now)).toMatchObject({backoffUntil: now + 1_801_000, slowed: {reason: 'rate-limited', window: 'minute'}});

		const longer = new ServiceBudget('v2', 0.5);
		expect(longer.tryAcquire(now)).toBe(0);
		longer.observe(
			answer({ratelimit: '"minute";r=0;t=12, "hour";r=5;t=1800', 'ratelimit-policy': '"minute";q=60;w=60, "hour";q=3000;w=3600', 'retry-after': '30'}),
			429,
			now,
		);
		longer.rateLimited(now, 30_000);
		longer.release();
		expect(longer.waitMs(now)).toBe(30_000);
	});

	test("an edge proxy's empty-bodied 429 with no headers: the windows stay known, backoff with jitter, growing, capped", () => {
		const budget = new ServiceBudget('v2', 0.5, () => 1);
		const now = noon;
		budget.tryAcquire(now);
		budget.observe(answer({ratelimit: '"minute";r=50;t=30', 'ratelimit-policy': '"minute";q=60;w=60'}), 200, now);
		budget.release();
		budget.tryAcquire(now, true);
		budget.observe(answer({}), 429, now);
		expect(budget.rateLimited(now)).toBe(1000);
		budget.release();
		expect(budget.snapshot(now).windows).toEqual([{name: 'minute', remaining: 49, limit: 60}]);
		expect(budget.snapshot(now).slowed).toMatchObject({reason: 'rate-limited'});
		expect(budget.rateLimited(now + 1000)).toBe(2000);
		for (let index = 0; index < 20; index++) {
			budget.rateLimited(now);
		}

		expect(budget.waitMs(now)).toBeLessThanOrEqual(60_000 + 3000);
	});

	test('malformed or missing headers on a success fall back to conservative spacing, one at a time, and say so; an edge 502 without them changes nothing', () => {
		const budget = new ServiceBudget('v2', 0.5);
		let now = noon;
		budget.tryAcquire(now);
		budget.observe(answer({ratelimit: '"minute";r=59;t=60', 'ratelimit-policy': '"minute";q=60;w=60'}), 200, now);
		budget.release();
		now += 3000;
		budget.tryAcquire(now);
		budget.observe(answer({}), 502, now);
		budget.release();
		expect(budget.snapshot(now).windows).toHaveLength(1);

		now += 3000;
		expect(budget.tryAcquire(now)).toBe(0);
		budget.observe(answer({ratelimit: 'minute=12', 'ratelimit-policy': '"minute";q=60;w=60'}), 200, now);
		expect(budget.snapshot(now)).toMatchObject({concurrency: 1, slowed: {reason: 'unreadable'}});
		expect(budget.snapshot(now).windows).toBeUndefined();
		// One at a time.
		expect(budget.tryAcquire(now, true)).toBe(Number.POSITIVE_INFINITY);
		budget.release();
		// Spaced for the spec's example quota at half: the day's 25,000 in 86,400 s is the tightest, 3.456 s apart.
		expect(budget.tryAcquire(now)).toBe(3456);
		expect(budget.tryAcquire(now + 3456)).toBe(0);
		budget.release();

		// A success without the headers at all is the same.
		const bare = new ServiceBudget('v2', 0.5);
		bare.tryAcquire(now);
		bare.observe(answer({}), 200, now);
		expect(bare.snapshot(now).slowed).toEqual({reason: 'unreadable'});
	});

	test("a user's action skips the spreading, never the share", () => {
		const budget = new ServiceBudget('v2', 0.5);
		const now = noon;
		budget.tryAcquire(now);
		budget.observe(answer({ratelimit: '"minute";r=9;t=30', 'ratelimit-policy': '"minute";q=10;w=60'}), 200, now);
		budget.release();
		// The opening burst: a fifth of its five, at once.
		expect(budget.tryAcquire(now)).toBe(0);
		budget.release();
		// Three more of its five: spread over the 31 s left, or at once for an action.
		expect(budget.tryAcquire(now)).toBeGreaterThan(5000);
		for (let index = 0; index < 3; index++) {
			expect(budget.tryAcquire(now, true)).toBe(0);
			budget.release();
		}

		// The share is spent: even an action waits for the window's reset.
		expect(budget.tryAcquire(now, true)).toBe(31_000);
		expect(budget.snapshot(now).slowed).toEqual({reason: 'spent', window: 'minute'});
	});
});

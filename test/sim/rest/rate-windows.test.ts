import {describe, expect, test} from 'vitest';
import {parseRestQuota, RateWindows} from '../../../source/sim/rest/rate-windows.js';

const minute = 60_000;

describe('v2 rate windows (pure, on an injected clock)', () => {
	test('three windows at once; a refusal counts nowhere and names the longest refusing window', () => {
		let now = Date.UTC(2026, 11, 1, 12, 0, 20);
		const windows = new RateWindows({minute: 2, hour: 3, day: 100}, () => now);
		expect(windows.admit('u').headers).toEqual({
			ratelimit: '"minute";r=1;t=40, "hour";r=2;t=3580, "day";r=99;t=43180',
			'ratelimit-policy': '"minute";q=2;w=60, "hour";q=3;w=3600, "day";q=100;w=86400',
		});
		expect(windows.admit('u').ok).toBe(true);
		const refused = windows.admit('u');
		expect(refused).toMatchObject({ok: false, retryAfter: 40, window: 'minute'});
		expect(refused.headers.ratelimit).toBe('"minute";r=0;t=40, "hour";r=1;t=3580, "day";r=98;t=43180');
		now += minute;
		expect(windows.admit('u').ok).toBe(true);
		now += minute;
		// Minute has room again, the hour has none: Retry-After is the hour's.
		const hourly = windows.admit('u');
		expect(hourly).toMatchObject({ok: false, window: 'hour', retryAfter: 3460});
		expect(windows.admit('someone else').ok).toBe(true);
		now = Date.UTC(2026, 11, 1, 13, 0, 0);
		expect(windows.admit('u').headers.ratelimit).toBe('"minute";r=1;t=60, "hour";r=2;t=3600, "day";r=96;t=39600');
	});

	test('a quota is three whole numbers', () => {
		expect(parseRestQuota('60/3000/50000')).toEqual({minute: 60, hour: 3000, day: 50_000});
		for (const bad of ['60/3000', '0/1/1', 'a/b/c', '1.5/2/3']) {
			expect(typeof parseRestQuota(bad)).toBe('string');
		}
	});
});

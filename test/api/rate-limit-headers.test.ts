import {describe, expect, test} from 'vitest';
import {parseRetryAfterHeader, parseServiceWindows, readRateLimitHeaders} from '../../source/api/rate-limit-headers.js';

const policy = '"minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400';
const state = '"minute";r=12;t=41, "hour";r=2800;t=1812, "day";r=49500;t=45012';

describe('v2 rate-limit headers', () => {
	test("the service notes' example: three windows, each with its quota, length, what is left and when it resets", () => {
		expect(parseServiceWindows(state, policy)).toEqual({
			windows: [
				{name: 'minute', limit: 60, windowSeconds: 60, remaining: 12, resetSeconds: 41},
				{name: 'hour', limit: 3000, windowSeconds: 3600, remaining: 2800, resetSeconds: 1812},
				{name: 'day', limit: 50_000, windowSeconds: 86_400, remaining: 49_500, resetSeconds: 45_012},
			],
		});
	});

	test('structured-field leniency: tokens for names, no spaces, a space after a semicolon, parameters in any order, unknown ones ignored, a repeated one last wins', () => {
		expect(parseServiceWindows('minute;t=5;r=3;x=9,hour; r=10;t=100', '"minute";w=60;q=10,"hour";q=1;q=100;w=3600')).toEqual({
			windows: [
				{name: 'minute', limit: 10, windowSeconds: 60, remaining: 3, resetSeconds: 5},
				{name: 'hour', limit: 100, windowSeconds: 3600, remaining: 10, resetSeconds: 100},
			],
		});
	});

	test('the windows in both headers only; r over q and t over w are cut to them', () => {
		expect(parseServiceWindows('"minute";r=99;t=999, "week";r=1;t=1', '"minute";q=60;w=60, "day";q=5;w=86400')).toEqual({
			windows: [{name: 'minute', limit: 60, windowSeconds: 60, remaining: 60, resetSeconds: 60}],
		});
		expect(parseServiceWindows('"week";r=1;t=1', policy)).toBeUndefined();
	});

	test.each([
		['missing RateLimit', undefined, policy],
		['missing policy', state, null],
		['empty', '', policy],
		['a negative count', '"minute";r=-1;t=41', policy],
		['a fraction', '"minute";r=1.5;t=41', policy],
		['a string value', '"minute";r="12";t=41', policy],
		['a window without r', '"minute";t=41', policy],
		['a policy without q', state, '"minute";w=60'],
		['a policy allowing nothing', state, '"minute";q=0;w=60'],
		['a window of no length', state, '"minute";q=60;w=0'],
		['a repeated window', '"minute";r=1;t=1, "minute";r=2;t=2', policy],
		['a trailing comma', `${state},`, policy],
		['an unclosed string', '"minute;r=12;t=41', policy],
		['JSON', '{"minute": {"r": 12}}', policy],
		['sixteen digits', '"minute";r=1234567890123456;t=41', policy],
	])('malformed (%s): undefined, so the scheduler spaces conservatively', (_, rateLimit, rateLimitPolicy) => {
		expect(parseServiceWindows(rateLimit, rateLimitPolicy)).toBeUndefined();
	});

	test('hostile headers are refused by their size before parsing, and never throw: huge, many members, control characters, a throwing getter', () => {
		const huge = `"minute";r=1;t=1${';x=1'.repeat(200_000)}`;
		const many = Array.from({length: 50}, (_, index) => `"w${index}";r=1;t=1`).join(', ');
		expect(parseServiceWindows(huge, policy)).toBeUndefined();
		expect(parseServiceWindows(`${'a'.repeat(1000)},`.repeat(1000), policy)).toBeUndefined();
		expect(parseServiceWindows(many, policy)).toBeUndefined();
		expect(parseServiceWindows('"min\u001B[2Jute";r=1;t=1', policy)).toBeUndefined();
		expect(parseServiceWindows('"minute";r=1;t=1\r\nX-Evil: 1', policy)).toBeUndefined();
		expect(parseServiceWindows('"a-name-longer-than-sixteen";r=1;t=1', policy)).toBeUndefined();
		const throwing = {
			get() {
				throw new Error('no');
			},
		};
		expect(readRateLimitHeaders(throwing)).toEqual({windows: undefined, stated: false, retryAfterMs: undefined});
	});

	test('Retry-After in seconds or as an HTTP date, at most a day; garbage is undefined', () => {
		const now = Date.UTC(2026, 11, 1, 12, 0, 0);
		expect(parseRetryAfterHeader('12', now)).toBe(12_000);
		expect(parseRetryAfterHeader(' 0 ', now)).toBe(0);
		expect(parseRetryAfterHeader('Tue, 01 Dec 2026 12:00:30 GMT', now)).toBe(30_000);
		expect(parseRetryAfterHeader('Tue, 01 Dec 2026 11:00:00 GMT', now)).toBe(0);
		expect(parseRetryAfterHeader('99999999999', now)).toBe(86_400_000);
		expect(parseRetryAfterHeader('soon', now)).toBeUndefined();
		expect(parseRetryAfterHeader('Infinity', now)).toBeUndefined();
		expect(parseRetryAfterHeader('1'.repeat(100), now)).toBeUndefined();
		expect(parseRetryAfterHeader(null, now)).toBeUndefined();
	});

	test('reads a WHATWG Headers: several header lines of one name are joined as one list', () => {
		const headers = new Headers();
		headers.append('RateLimit', '"minute";r=12;t=41');
		headers.append('RateLimit', '"hour";r=2800;t=1812');
		headers.set('RateLimit-Policy', policy);
		headers.set('Retry-After', '7');
		const read = readRateLimitHeaders(headers);
		expect(read.stated).toBe(true);
		expect(read.retryAfterMs).toBe(7000);
		expect(read.windows?.windows.map(window => `${window.name} ${window.remaining}/${window.limit}`)).toEqual(['minute 12/60', 'hour 2800/3000']);
	});
});

import {expect, test} from 'vitest';
import {formatRate, loadCost, loadShape, parseRate} from '../../source/commands/load-plan.js';

test('rates: per second, per minute, bare numbers; nothing else', () => {
	expect([parseRate('5/s'), parseRate('30/m'), parseRate('2'), parseRate('0.5/s'), parseRate('3600/h')]).toEqual([5, 0.5, 2, 0.5, 1]);
	expect([parseRate('0/s'), parseRate('fast'), parseRate('-1/s'), parseRate('5/d')]).toEqual([undefined, undefined, undefined, undefined]);
	expect([formatRate(5), formatRate(0.5), formatRate(10 / 3)]).toEqual(['5/s', '30/m', '3.33/s']);
});

test('jobs come from --jobs or rate × duration (60 s by default); the budget caps the rate and, with --sync, the concurrency', () => {
	expect(loadShape({sync: false}, {})).toMatchObject({ratePerSecond: 5, jobs: 300, maxRatePerSecond: 10, submitsInFlight: 20, statusInFlight: 40});
	expect(loadShape({rate: '2/s', duration: '1m30s', sync: false}, {})).toMatchObject({jobs: 180});
	expect(loadShape({rate: '50/s', jobs: 7, sync: false}, {share: 1})).toMatchObject({jobs: 7, maxRatePerSecond: 100});
	expect(() => loadShape({rate: '10.5/s', sync: false}, {})).toThrow(/at most 10\/s \(100 per 10 s\)/);
	expect(() => loadShape({jobs: 3, duration: '1m', sync: false}, {})).toThrow(/not both/);
	expect(() => loadShape({jobs: 0, sync: false}, {})).toThrow(/--jobs/);
	expect(() => loadShape({duration: 'soon', sync: false}, {})).toThrow(/--duration/);
	expect(() => loadShape({concurrency: 41, sync: true}, {})).toThrow(/at most 40 requests at once/);
	expect(loadShape({concurrency: 41, sync: false}, {})).toMatchObject({concurrency: 41});
});

test('image models: the exact cost of the whole run; other endpoints: none', () => {
	// 1024 × 1024 on dev is 0.02097152 each (the service's figure).
	expect(loadCost('black-forest-labs-flux-1-dev', {prompt: 'fox'}, 10)).toEqual({each: 0.020_971_52, total: 0.209_715_2});
	expect(loadCost('abc123', {prompt: 'fox'}, 10)).toBeUndefined();
	expect(() => loadCost('black-forest-labs-flux-1-dev', {prompt: 'fox', num_inference_steps: 99}, 1)).toThrow(
		/num_inference_steps must be a whole number from 1 to 50/,
	);
});

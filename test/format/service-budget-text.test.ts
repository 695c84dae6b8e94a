import {describe, expect, test} from 'vitest';
import {serviceBudgetText, type ServiceBudgetView} from '../../source/format/service-budget-text.js';

const base: ServiceBudgetView = {key: 'v2'};
const windows = [
	{name: 'minute', remaining: 41, limit: 60},
	{name: 'hour', remaining: 2800, limit: 3000},
	{name: 'day', remaining: 49_500, limit: 50_000},
];

describe('serviceBudgetText', () => {
	test("the minute's and the hour's windows, the day's only when under a quarter is left", () => {
		expect(serviceBudgetText({...base, windows}, '·')).toBe('v2 41/60 min · 2.8k/3k h');
		expect(serviceBudgetText({...base, windows: [...windows.slice(0, 2), {name: 'day', remaining: 12_000, limit: 50_000}]}, '-')).toBe(
			'v2 41/60 min - 2.8k/3k h - 12k/50k d',
		);
	});

	test('why it is slowed, in a few words', () => {
		expect(serviceBudgetText({...base, windows, slowed: {reason: 'rate-limited', window: 'hour'}}, '·')).toBe('v2 41/60 min · 2.8k/3k h 429, waiting for h');
		expect(serviceBudgetText({...base, windows, slowed: {reason: 'rate-limited'}}, '·')).toBe('v2 41/60 min · 2.8k/3k h 429, waiting');
		expect(serviceBudgetText({...base, windows, slowed: {reason: 'spent', window: 'minute'}}, '·')).toBe('v2 41/60 min · 2.8k/3k h slowed: share of min used');
		expect(serviceBudgetText({...base, windows, slowed: {reason: 'others'}}, '·')).toBe('v2 41/60 min · 2.8k/3k h slowed: others on the key');
		expect(serviceBudgetText({...base, slowed: {reason: 'unreadable'}}, '·')).toBe('v2 – slowed: rate headers unreadable');
	});

	test('a window the service names otherwise is named inertly and short', () => {
		expect(serviceBudgetText({...base, windows: [{name: 'week\u001B[2J', remaining: 1, limit: 2}]}, '·')).toBe('v2 1/2 week␛[');
	});
});

import {describe, expect, test} from 'vitest';
import {chooseTier} from '../../source/history/sqlite-reader.js';

const hour = 3_600_000;
const minute = 60_000;

describe('the tier a range is read from', () => {
	test('the finest the step allows that holds the start', () => {
		const oldest = {raw: 0, minute: 0, hour: 0};
		expect(chooseTier(undefined, 10 * hour, oldest)).toBe('raw');
		expect(chooseTier(5 * minute, 10 * hour, oldest)).toBe('minute');
		expect(chooseTier(2 * hour, 10 * hour, oldest)).toBe('hour');
	});

	test('a recording begun at 23:05: the minutes, not the hour whose bucket starts at 23:00 and lacks the hour in progress', () => {
		const started = 23 * hour + 5 * minute;
		expect(chooseTier(5 * minute, 23 * hour, {raw: started, minute: started, hour: 23 * hour})).toBe('minute');
		expect(chooseTier(10_000, 23 * hour, {raw: started, minute: started, hour: 23 * hour})).toBe('raw');
	});

	test('a coarser tier for what the finer one no longer holds (pruned past its retention)', () => {
		const now = 100 * 24 * hour;
		const oldest = {raw: now - 48 * hour, minute: now - 30 * 24 * hour, hour: 0};
		expect(chooseTier(10_000, now - 72 * hour, oldest)).toBe('minute');
		expect(chooseTier(5 * minute, now - 40 * 24 * hour, oldest)).toBe('hour');
		expect(chooseTier(10_000, now - hour, oldest)).toBe('raw');
		// Nothing in the finer tiers yet: whatever there is.
		expect(chooseTier(10_000, 0, {raw: undefined, minute: undefined, hour: 5 * hour})).toBe('hour');
	});
});

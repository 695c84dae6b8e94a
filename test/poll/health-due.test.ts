import {describe, expect, test} from 'vitest';
import {defaultCadence} from '../../source/poll/cadence.js';
import {healthDue} from '../../source/poll/health-due.js';

const ids = Array.from({length: 1000}, (_, index) => `e${index}`);

describe('which endpoints get a /health poll', () => {
	test('with nothing said about the screen, every endpoint is due every health interval', () => {
		const due = healthDue({ids, onScreen: undefined, lastPolled: new Map(ids.map(id => [id, 0])), now: 5000, cadence: defaultCadence});
		expect(due.onScreen).toHaveLength(1000);
		expect(due.offScreen).toHaveLength(0);
	});

	test('on screen every 5 s; the other 964 spread to at most 10 requests a second, never staler than 60 s', () => {
		const onScreen = new Set(ids.slice(0, 36));
		// Everything was polled at once at 0 s: at 5 s only the rows on screen are due.
		const polled = new Map(ids.map(id => [id, 0]));
		expect(healthDue({ids, onScreen, lastPolled: polled, now: 5000, cadence: defaultCadence})).toEqual({onScreen: ids.slice(0, 36), offScreen: []});
		// 964 off screen at 10/s would be every 96 s: capped at 60 s.
		expect(healthDue({ids, onScreen, lastPolled: polled, now: 59_000, cadence: defaultCadence}).offScreen).toHaveLength(0);
		expect(healthDue({ids, onScreen, lastPolled: polled, now: 60_000, cadence: defaultCadence}).offScreen).toHaveLength(964);
		// 300 off screen at 10/s: every 30 s.
		const some = ids.slice(0, 300);
		expect(
			healthDue({ids: some, onScreen: new Set(), lastPolled: new Map(some.map(id => [id, 0])), now: 30_000, cadence: defaultCadence}).offScreen,
		).toHaveLength(300);
		const huge = Array.from({length: 5000}, (_, index) => `h${index}`);
		expect(
			healthDue({ids: huge, onScreen: new Set(), lastPolled: new Map(huge.map(id => [id, 0])), now: 60_000, cadence: defaultCadence}).offScreen,
		).toHaveLength(5000);
	});

	test('a small fleet off screen (another pane) is polled every 15 s, as before', () => {
		const few = ids.slice(0, 8);
		const polled = new Map(few.map(id => [id, 0]));
		expect(healthDue({ids: few, onScreen: new Set(), lastPolled: polled, now: 10_000, cadence: defaultCadence}).offScreen).toHaveLength(0);
		expect(healthDue({ids: few, onScreen: new Set(), lastPolled: polled, now: 15_000, cadence: defaultCadence}).offScreen).toHaveLength(8);
	});
});

import {describe, expect, test, vi} from 'vitest';
import {SimClock} from '../../source/sim/clock.js';
import {createRandom} from '../../source/sim/random.js';
import {SlidingWindow} from '../../source/lib/sliding-window.js';
import {splitOutput} from '../../source/sim/stream-chunks.js';

describe('SlidingWindow', () => {
	test('counts events in the trailing window and says when a slot frees', () => {
		const window = new SlidingWindow(10_000);
		window.add(0);
		window.add(4000);
		expect(window.count(9999)).toBe(2);
		expect(window.msUntilSlotFrees(9999)).toBe(1);
		expect(window.count(10_000)).toBe(1);
		expect(window.count(14_000)).toBe(0);
		expect(window.msUntilSlotFrees(14_000)).toBe(0);
	});

	test('stays small under a long stream of events', () => {
		const window = new SlidingWindow(100);
		for (let now = 0; now < 100_000; now++) {
			window.add(now);
		}

		expect(window.count(100_000)).toBe(99);
	});
});

describe('splitOutput', () => {
	test('leaves small outputs alone', () => {
		expect(splitOutput({a: 1}, 100)).toEqual([{a: 1}]);
		expect(splitOutput('short', 100)).toEqual(['short']);
	});

	test('cuts on character boundaries by UTF-8 bytes', () => {
		const text = 'é'.repeat(10);
		const pieces = splitOutput(text, 5) as string[];
		expect(pieces.join('')).toBe(text);
		for (const piece of pieces) {
			expect(Buffer.byteLength(piece)).toBeLessThanOrEqual(5);
		}
	});

	test('serialises large objects to JSON pieces that join back', () => {
		const value = {list: Array.from({length: 100}, (_, index) => index)};
		const pieces = splitOutput(value, 64) as string[];
		expect(pieces.length).toBeGreaterThan(1);
		expect(JSON.parse(pieces.join(''))).toEqual(value);
	});
});

describe('SimClock', () => {
	test('runs simulated time faster and fires timers in simulated milliseconds', async () => {
		vi.useFakeTimers();
		try {
			// At 100 times real speed, 5 simulated seconds are 50 real milliseconds.
			const clock = new SimClock(100, 0);
			let fired: number | undefined;
			clock.setTimeout(() => {
				fired = clock.now();
			}, 5000);
			await vi.advanceTimersByTimeAsync(49);
			expect(fired).toBeUndefined();
			expect(clock.now()).toBe(4900);
			await vi.advanceTimersByTimeAsync(1);
			expect(fired).toBe(5000);
			expect(clock.pendingTimers).toBe(0);
		} finally {
			vi.useRealTimers();
		}
	});

	test('close() clears every pending timer', () => {
		const clock = new SimClock(1);
		clock.setTimeout(() => {
			throw new Error('must not fire');
		}, 10);
		expect(clock.pendingTimers).toBe(1);
		clock.close();
		expect(clock.pendingTimers).toBe(0);
	});

	test('rejects a speed that is not positive', () => {
		expect(() => new SimClock(0)).toThrow(RangeError);
	});
});

describe('createRandom', () => {
	test('replays the same sequence for the same seed', () => {
		const a = createRandom(42);
		const b = createRandom(42);
		expect(Array.from({length: 5}, () => a.next())).toEqual(Array.from({length: 5}, () => b.next()));
		expect(createRandom(1).alphanumeric(14)).not.toBe(createRandom(2).alphanumeric(14));
	});
});

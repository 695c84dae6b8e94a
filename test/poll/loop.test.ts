import {describe, expect, test} from 'vitest';
import {createLoop} from '../../source/poll/loop.js';

const sleep = async (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

describe('createLoop', () => {
	test('never overlaps runs, even when a run outlasts the interval', async () => {
		let running = 0;
		let overlapped = false;
		let runs = 0;
		const loop = createLoop(
			async () => {
				running++;
				overlapped ||= running > 1;
				runs++;
				await sleep(30);
				running--;
			},
			() => 1,
		);
		loop.start();
		await sleep(200);
		loop.stop();
		expect(overlapped).toBe(false);
		expect(runs).toBeGreaterThan(2);
	});

	test('stop() aborts the run in flight and schedules nothing more', async () => {
		let aborted = false;
		let runs = 0;
		const loop = createLoop(
			async signal => {
				runs++;
				await new Promise<void>(resolve => {
					signal.addEventListener('abort', () => {
						aborted = true;
						resolve();
					});
				});
			},
			() => 1,
		);
		loop.start();
		await sleep(10);
		loop.stop();
		await sleep(50);
		expect(aborted).toBe(true);
		expect(runs).toBe(1);
	});

	test('trigger() runs now; during a run it queues exactly one more', async () => {
		let runs = 0;
		const loop = createLoop(
			async () => {
				runs++;
				await sleep(20);
			},
			() => 60_000,
		);
		loop.start();
		await sleep(5);
		loop.trigger();
		loop.trigger();
		await sleep(80);
		expect(runs).toBe(2);
		loop.trigger();
		await sleep(5);
		expect(runs).toBe(3);
		loop.stop();
	});

	test('a run that throws does not kill the loop', async () => {
		let runs = 0;
		const loop = createLoop(
			async () => {
				runs++;
				throw new Error('boom');
			},
			() => 5,
		);
		loop.start();
		await sleep(60);
		loop.stop();
		expect(runs).toBeGreaterThan(2);
	});

	test('reschedule() cuts or stretches the sleep under way to the new interval, counted from the last run', async () => {
		const runs: number[] = [];
		let interval = 60_000;
		const loop = createLoop(
			async () => {
				runs.push(Date.now());
			},
			() => interval,
		);
		loop.start();
		await sleep(20);
		expect(runs).toHaveLength(1);
		// Shown: 150 ms from the last run, which was 20 ms ago.
		interval = 150;
		loop.reschedule();
		await sleep(60);
		expect(runs).toHaveLength(1);
		await sleep(120);
		expect(runs).toHaveLength(2);
		expect(runs[1]! - runs[0]!).toBeGreaterThanOrEqual(140);
		// Hidden again: the next sleep stretches to a minute.
		interval = 60_000;
		loop.reschedule();
		await sleep(250);
		expect(runs).toHaveLength(2);
		// A sleep already longer than the new interval runs at once.
		interval = 0;
		loop.reschedule();
		await sleep(20);
		expect(runs.length).toBeGreaterThanOrEqual(3);
		loop.stop();
	});
});

import {describe, expect, test} from 'vitest';
import {createReadAhead, readAheadIdleMs} from '../../source/dashboard/read-ahead.js';
import type {HistoryReader, PastAccount} from '../../source/history/history-types.js';

const idle = async () =>
	new Promise(resolve => {
		setTimeout(resolve, readAheadIdleMs + 30);
	});

const account = (at: number) => ({at, tier: 'raw'}) as unknown as PastAccount;

/** A reader over an agent or Prometheus (answers later), counting what it is asked. */
function asyncReader(fail = false) {
	const asked: number[] = [];
	const reader = {
		async stateAt(at: number) {
			asked.push(at);
			if (fail) {
				throw new Error('the agent went away');
			}

			return account(at);
		},
	} as unknown as HistoryReader;
	return {reader, asked};
}

/** The local file's reader (answers at once), with whether each read had the pods' values. */
function localReader() {
	const asked: Array<{at: number; pods: boolean | undefined}> = [];
	const reader = {
		stateAtNow(at: number, options?: {pods?: boolean}) {
			asked.push({at, pods: options?.pods});
			return account(at);
		},
	} as unknown as HistoryReader;
	return {reader, asked};
}

describe('reading the next step ahead', () => {
	const now = Date.parse('2026-11-27T12:00:00Z');
	const clock = {at: now};
	const ahead = createReadAhead(() => clock.at);

	test('an answer still on its way is kept and taken once; a moment not read ahead is not served', async () => {
		const {reader, asked} = asyncReader();
		ahead.schedule(reader, now - 120_000, false);
		expect(asked).toEqual([]);
		await idle();
		expect(asked).toEqual([now - 120_000]);
		expect(ahead.take(now - 60_000, false)).toBeUndefined();
		ahead.schedule(reader, now - 120_000, false);
		await idle();
		const taken = ahead.take(now - 120_000, true);
		// An agent's answer holds the pods whatever was asked.
		await expect(taken?.answer).resolves.toEqual(account(now - 120_000));
		expect(ahead.take(now - 120_000, true)).toBeUndefined();
	});

	test('a failed read ahead is no unhandled rejection: the step that takes it says it', async () => {
		const {reader} = asyncReader(true);
		ahead.schedule(reader, now - 120_000, false);
		await idle();
		await expect(ahead.take(now - 120_000, false)?.answer).rejects.toThrow('the agent went away');
	});

	test('a read without the pods does not serve a pane that shows them; an old answer or a moment too near now is not used', async () => {
		const {reader, asked} = localReader();
		ahead.schedule(reader, now - 120_000, false);
		await idle();
		expect(asked).toEqual([{at: now - 120_000, pods: false}]);
		expect(ahead.take(now - 120_000, true)).toBeUndefined();

		ahead.schedule(reader, now - 120_000, true);
		await idle();
		clock.at = now + 31_000;
		expect(ahead.take(now - 120_000, true)).toBeUndefined();
		clock.at = now;

		// A poll in flight may still be written a few seconds back: that moment is read by its own step.
		ahead.schedule(reader, now - 5000, true);
		await idle();
		expect(asked).toHaveLength(2);
		expect(ahead.take(now - 5000, true)).toBeUndefined();
	});

	test('clear cancels a read not yet made', async () => {
		const {reader, asked} = localReader();
		ahead.schedule(reader, now - 120_000, true);
		ahead.clear();
		await idle();
		expect(asked).toEqual([]);
	});
});

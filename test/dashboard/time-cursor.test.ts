import {mkdtempSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, describe, expect, test} from 'vitest';
import {createDisplayStore, pastState} from '../../source/dashboard/display-store.js';
import {driveTimeCursor} from '../../source/dashboard/time-cursor.js';
import {openHistoryForWriting} from '../../source/history/history-file.js';
import {createRecorder} from '../../source/history/recorder.js';
import {createSqliteReader} from '../../source/history/sqlite-reader.js';
import {handleKey} from '../../source/operations/handle-key.js';
import type {OperationContext} from '../../source/operations/operation.js';
import {createRowSelectors} from '../../source/rows/visible-rows.js';
import {unicodeGlyphs} from '../../source/format/glyphs.js';
import {createPodtopStore} from '../../source/store/create-store.js';
import {createViewStore} from '../../source/view-state/view-store.js';
import {initialViewState} from '../../source/view-state/view-state.js';
import type {Engine} from '../../source/engine/create-engine.js';
import type {History} from '../../source/history/open-history.js';
import type {StateAtOptions} from '../../source/history/history-types.js';
import {readAheadIdleMs} from '../../source/dashboard/read-ahead.js';
import {formatClock} from '../../source/format/clock.js';

const health = (inQueue: number) => ({
	jobs: {inQueue, inProgress: 0, completed: 10, failed: 0, retried: 0},
	workers: {running: 1, idle: 0, initializing: 0, ready: 0, throttled: 0, unhealthy: 0},
});

const until = async (check: () => boolean, ms = 2000) => {
	const started = Date.now();
	while (!check()) {
		if (Date.now() - started > ms) {
			throw new Error('timed out');
		}

		await new Promise(resolve => setTimeout(resolve, 10));
	}
};

/** Long enough for the next step to have been read ahead. */
const idle = async () =>
	new Promise(resolve => {
		setTimeout(resolve, readAheadIdleMs + 50);
	});

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) {
		cleanup();
	}
});

/** Ten minutes of an endpoint's queue recorded for real, ending now: the queue is the minute. */
function recordedDashboard() {
	const file = join(mkdtempSync(join(tmpdir(), 'podtop-cursor-')), 'account.sqlite');
	const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'example', keyFingerprint: '••••abcd'});
	const {db} = openHistoryForWriting(file);
	const end = Date.now();
	const start = end - 10 * 60_000;
	let at = start;
	const recorder = createRecorder({store, db, file, now: () => at, live: false});
	writes.setEndpoints([{id: 'ep1', name: 'llama'}], start);
	for (at = start; at <= end; at += 5000) {
		writes.setHealth('ep1', health(Math.floor((at - start) / 60_000)), at);
		recorder.flush(at);
	}

	const sqlite = createSqliteReader({db, file, ownsDatabase: false});
	// Every moment the history is asked for, in order (the steps' own reads and those read ahead).
	const reads: number[] = [];
	const reader = {
		...sqlite,
		stateAtNow(at: number, options?: StateAtOptions) {
			reads.push(at);
			return sqlite.stateAtNow!(at, options);
		},
	};
	const view = createViewStore(initialViewState({columns: 120, rows: 40}));
	const display = createDisplayStore(store);
	const stop = driveTimeCursor({live: store, display, view, reader: () => reader});
	cleanups.push(() => {
		stop();
		display.stop();
		db.close();
	});
	const engine = {readOnly: false, history: {reader: () => reader} as unknown as History} as unknown as Engine;
	const context: OperationContext = {engine, store: display, view, rows: createRowSelectors(unicodeGlyphs), exit() {}};
	return {store, writes, view, display, context, start, end, reads, sqlite};
}

describe('the time cursor', () => {
	test('[ shows the account a step back, { ten steps, . live again; the live store goes on underneath', async () => {
		const {store, writes, view, display, context, end} = recordedDashboard();
		// Live, the queue is 10 (the last minute).
		expect(display.getState().endpoints.byId.ep1?.health?.jobs.inQueue).toBe(10);
		view.dispatch({type: 'window', step: -1});
		expect(view.getState().windows.endpoints).toBe('10m');
		handleKey(context, '{');
		await until(() => view.getState().cursor !== undefined && display.getState() !== store.getState());
		// Ten 10-second steps back: 100 s ago, in minute 8 of the ten.
		expect(view.getState().cursor).toBeGreaterThanOrEqual(end - 101_000);
		expect(display.getState().endpoints.byId.ep1?.health?.jobs.inQueue).toBe(8);

		// A live poll while in the past is not shown…
		writes.setHealth('ep1', health(42), Date.now());
		expect(display.getState().endpoints.byId.ep1?.health?.jobs.inQueue).toBe(8);
		// …until . goes back to live.
		handleKey(context, '.');
		expect(view.getState().cursor).toBeUndefined();
		expect(display.getState().endpoints.byId.ep1?.health?.jobs.inQueue).toBe(42);
	});

	test('a step over the local file shows the moment with the cursor: no view of the new time over the old account, no "reading"', async () => {
		const {store, view, display, context, end} = recordedDashboard();
		const seen: Array<{cursor: number | undefined; live: boolean; pending: string | undefined}> = [];
		// What a frame drawn after any change of the view would show: the banner's time beside the account on screen.
		const unsubscribe = view.subscribe(state => {
			seen.push({cursor: state.cursor, live: display.getState() === store.getState(), pending: state.pending});
		});
		handleKey(context, '[');
		await until(() => view.getState().cursor !== undefined);
		unsubscribe();
		expect(view.getState().cursor).toBeGreaterThanOrEqual(end - 61_000);
		expect(display.getState().endpoints.byId.ep1?.health?.jobs.inQueue).toBe(9);
		expect(seen.length).toBeGreaterThan(0);
		expect(seen.filter(({cursor}) => cursor !== undefined)).toEqual(seen.map(({cursor}) => ({cursor, live: false, pending: undefined})));
	});

	test('writes are refused in the past with the reason; a step before the first sample stops at it', async () => {
		const {view, context, start} = recordedDashboard();
		view.dispatch({type: 'cursor', at: start + 60_000});
		handleKey(context, 'P');
		expect(view.getState().overlay.type).toBe('none');
		expect(view.getState().message?.text).toMatch(/cannot act on the past/);
		// The 1h window steps a minute: ten of them from a minute in go back past the start.
		handleKey(context, '{');
		await until(() => view.getState().cursor === start);
		expect(view.getState().message?.text).toMatch(/went to the oldest moment recorded/);
	});

	test(':at before the history goes to the oldest moment recorded and says so, with that moment; the next action clears the message', async () => {
		const {view, context, start} = recordedDashboard();
		handleKey(context, ':');
		for (const key of 'at 20m') {
			handleKey(context, key);
		}

		handleKey(context, 'enter');
		await until(() => view.getState().cursor !== undefined);
		expect(view.getState().cursor).toBe(start);
		const clock = formatClock(start);
		// The moment, and how long ago it is (ten minutes, and the few seconds the test took).
		const said = view.getState().message?.text ?? '';
		expect(said.startsWith(`went to the oldest moment recorded, ${clock} (10m`)).toBe(true);
		expect(said).toMatch(/ ago\): nothing is recorded before it$/);
		handleKey(context, 's');
		expect(view.getState().message).toBeUndefined();
	});

	test(':at 5m jumps; a time that does not parse says what one looks like', async () => {
		const {view, context} = recordedDashboard();
		handleKey(context, ':');
		for (const key of 'at 5m') {
			handleKey(context, key);
		}

		const before = Date.now();
		handleKey(context, 'enter');
		await until(() => view.getState().cursor !== undefined);
		// Five minutes before the moment the line was entered, however long the host took to get there.
		expect(view.getState().cursor).toBeGreaterThanOrEqual(before - 300_000);
		expect(view.getState().cursor).toBeLessThanOrEqual(Date.now() - 300_000);
		handleKey(context, ':');
		for (const key of 'at soon') {
			handleKey(context, key);
		}

		handleKey(context, 'enter');
		expect(view.getState().message?.text).toMatch(/:at needs a time like 03:12/);
	});

	test('after a step, the next one is read while nobody types; that step then shows it without reading, as a read would show it', async () => {
		const {store, view, display, context, reads, sqlite} = recordedDashboard();
		view.dispatch({type: 'window', step: -1});
		handleKey(context, '[');
		await until(() => view.getState().cursor !== undefined);
		const first = view.getState().cursor!;
		// The step's own read, then (once idle) the moment a step further back.
		expect(reads).toEqual([first]);
		await idle();
		expect(reads).toEqual([first, first - 10_000]);

		handleKey(context, '[');
		await until(() => view.getState().cursor === first - 10_000);
		// Shown from what was read ahead: no read in the step itself.
		expect(reads).toEqual([first, first - 10_000]);
		expect(display.getState()).toEqual(pastState(store.getState(), sqlite.stateAtNow!(first - 10_000), first - 10_000));

		// A step the other way is not the one read ahead: it reads its own moment.
		await idle();
		expect(reads.at(-1)).toBe(first - 20_000);
		handleKey(context, ']');
		await until(() => view.getState().cursor === first);
		expect(reads.at(-1)).toBe(first);
	});

	test('keys faster than the idle moment read nothing ahead; a jump with :at reads nothing ahead; live again drops what was read', async () => {
		const {view, context, reads} = recordedDashboard();
		// The 10m window steps 10 s: a jump of minutes is no step.
		view.dispatch({type: 'window', step: -1});
		handleKey(context, '[');
		await until(() => view.getState().cursor !== undefined);
		handleKey(context, '[');
		await until(() => reads.length === 2);
		handleKey(context, '[');
		await until(() => reads.length === 3);
		await idle();
		// Three steps of 10 s, then the fourth read ahead once they stopped.
		expect(reads).toEqual([reads[0], reads[0]! - 10_000, reads[0]! - 20_000, reads[0]! - 30_000]);

		handleKey(context, ':');
		for (const key of 'at 9m') {
			handleKey(context, key);
		}

		handleKey(context, 'enter');
		await until(() => reads.length === 5);
		await idle();
		expect(reads).toHaveLength(5);
		handleKey(context, '.');
		expect(view.getState().cursor).toBeUndefined();
		await idle();
		expect(reads).toHaveLength(5);
	});
});

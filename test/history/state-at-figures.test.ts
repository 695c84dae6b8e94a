import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, expect, test} from 'vitest';
import {openHistoryForWriting} from '../../source/history/history-file.js';
import {createMaintenance} from '../../source/history/maintenance.js';
import {createRecorder} from '../../source/history/recorder.js';
import type {Retention} from '../../source/history/retention.js';
import {createSqliteReader} from '../../source/history/sqlite-reader.js';
import {createPodtopStore} from '../../source/store/create-store.js';
import type {EndpointFigures} from '../../source/store/types.js';
import {seededRandom} from '../helpers/seeded-random.js';

const start = Date.parse('2026-11-20T03:00:00Z');
const minute = 60_000;

let cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups) {
		cleanup();
	}

	cleanups = [];
});

type Endpoint = {
	readonly id: string;
	/** How often its health is polled (an endpoint off screen is polled about once a minute). */
	readonly everyMs: number;
	/** When it was created (minutes after the start). */
	readonly fromMinute: number;
	readonly busy: boolean;
};

const endpoints: readonly Endpoint[] = [
	{id: 'ep1', everyMs: 5000, fromMinute: 0, busy: true},
	{id: 'ep2', everyMs: 15_000, fromMinute: 0, busy: true},
	{id: 'ep3', everyMs: 60_000, fromMinute: 0, busy: true},
	{id: 'ep4', everyMs: 5000, fromMinute: 0, busy: false},
	{id: 'ep5', everyMs: 10_000, fromMinute: 42, busy: true},
];

/**
An account recorded for real for `minutes`, polled every 5 s: each endpoint's health on its own cadence, its
counters moving at each of its polls by amounts of their own (so its samples are written at moments of
their own), a pod changing at every poll. The live store's figures after each poll are kept.
*/
async function recorded(minutes: number, retention?: Retention) {
	const directory = mkdtempSync(join(tmpdir(), 'podtop-figures-'));
	const file = join(directory, 'account.sqlite');
	const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'example', keyFingerprint: '••••abcd'});
	const {db} = openHistoryForWriting(file, start);
	let now = start;
	const recorder = createRecorder({store, db, file, now: () => now, live: false});
	cleanups.push(() => {
		recorder.stop();
		db.close();
		rmSync(directory, {recursive: true, force: true});
	});
	const random = seededRandom(41);
	const counters = new Map(endpoints.map(({id}) => [id, {completed: 1000, failed: 10}]));
	const live = new Map<number, Record<string, EndpointFigures>>();
	for (; now <= start + minutes * minute; now += 5000) {
		const elapsed = now - start;
		const listed = endpoints.filter(({fromMinute}) => elapsed >= fromMinute * minute);
		writes.setEndpoints(
			listed.map(({id}) => ({id, name: `endpoint ${id}`, workersMin: 0, workersMax: 4})),
			now,
		);
		for (const {id, everyMs, busy} of listed) {
			if (elapsed % everyMs !== 0) {
				continue;
			}

			const counter = counters.get(id)!;
			if (busy) {
				counter.completed += 1 + Math.floor(random() * 12);
				counter.failed += 1 + Math.floor(random() * 2);
			}

			writes.setHealth(
				id,
				{
					jobs: {inQueue: busy ? Math.max(1, 60 - Math.floor(elapsed / minute)) : 0, inProgress: 1, ...counter, retried: 0},
					workers: {running: 2, idle: 0, initializing: 0, ready: 2, throttled: 0, unhealthy: 0},
				},
				now,
			);
		}

		writes.setPods([{id: 'p1', name: 'trainer', desiredStatus: 'RUNNING', costPerHr: 1, gpuCount: 1, runtime: {uptimeInSeconds: elapsed / 1000}}], now);
		recorder.flush(now);
		live.set(now, Object.fromEntries(Object.entries(store.getState().endpoints.byId).map(([id, endpoint]) => [id, endpoint.figures])));
	}

	await createMaintenance({db, now: () => now, retention}).run();
	return {reader: createSqliteReader({db, file, ownsDatabase: false}), live, end: now - 5000};
}

test("the account at a past moment has every endpoint's throughput, failure rate and drain ETA, as the live figures said then", async () => {
	const {reader, live, end} = await recorded(60);
	const random = seededRandom(7);
	// 20 and 45 minutes back (as `:at 20m`, `:at 45m`), on a poll and between polls, and a few minutes after ep5 was created.
	const moments = [
		end - 20 * minute,
		end - 45 * minute,
		start + 44 * minute + 2500,
		...Array.from({length: 12}, () => start + 6 * minute + Math.floor(random() * 50 * minute)),
	];
	for (const moment of moments) {
		const account = await reader.stateAt(moment);
		expect(account?.tier).toBe('raw');
		const poll = moment - ((moment - start) % 5000);
		const then = live.get(poll)!;
		for (const {id, busy, fromMinute} of endpoints) {
			if (moment - start < fromMinute * minute) {
				expect(account!.endpoints.byId[id]).toBeUndefined();
				continue;
			}

			const {figures} = account!.endpoints.byId[id]!;
			expect([id, moment - start, figures]).toEqual([id, moment - start, then[id]]);
			if (busy) {
				expect(figures.throughputPerMinute).toBeGreaterThan(0);
				expect(figures.failureRate).toBeGreaterThan(0);
				expect(figures.drainEtaSeconds).toBeGreaterThan(0);
			} else {
				expect(figures).toMatchObject({throughputPerMinute: 0, drainEtaSeconds: 0});
			}
		}
	}
});

test('further back than the raw samples are kept, the rollups give the figures: five minutes of minute buckets, an hour at the hour buckets', async () => {
	const {reader} = await recorded(180, {raw: 10 * minute, minute: 60 * minute, hour: 365 * 86_400_000});
	const minuteAccount = await reader.stateAt(start + 150 * minute + 30_000);
	expect(minuteAccount?.tier).toBe('minute');
	const hourAccount = await reader.stateAt(start + 90 * minute);
	expect(hourAccount?.tier).toBe('hour');
	for (const account of [minuteAccount!, hourAccount!]) {
		for (const id of ['ep1', 'ep2', 'ep3', 'ep5']) {
			const {figures} = account.endpoints.byId[id]!;
			expect(figures.throughputPerMinute).toBeGreaterThan(0);
			expect(figures.failureRate).toBeGreaterThan(0);
			expect(figures.drainEtaSeconds).toBeGreaterThan(0);
		}
	}

	// The hour's counters, over the hour: ep1 finishes 8 jobs a poll on average, 12 polls a minute.
	expect(hourAccount!.endpoints.byId.ep1!.figures.throughputPerMinute).toBeGreaterThan(60);
	expect(hourAccount!.endpoints.byId.ep1!.figures.throughputPerMinute).toBeLessThan(120);
});

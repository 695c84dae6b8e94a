import {mkdtempSync, readFileSync, statSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, describe, expect, test} from 'vitest';
import type {PodRecord} from '../../source/model/pod.js';
import type {Health} from '../../source/api/job-types.js';
import {openHistoryForWriting} from '../../source/history/history-file.js';
import {createMaintenance} from '../../source/history/maintenance.js';
import {createRecorder} from '../../source/history/recorder.js';
import {createSqliteReader} from '../../source/history/sqlite-reader.js';
import {createPodtopStore} from '../../source/store/create-store.js';

const start = Date.parse('2026-11-20T03:00:00Z');

const health = (inQueue: number, completed: number, running = 2): Health => ({
	jobs: {inQueue, inProgress: 1, completed, failed: 1, retried: 0},
	workers: {running, idle: 1, initializing: 0, ready: 1, throttled: 0, unhealthy: 0},
});

const pod = (id: string, util: number, status = 'RUNNING'): PodRecord => ({
	id,
	name: `pod ${id}`,
	imageName: 'runpod/pytorch',
	desiredStatus: status,
	costPerHr: 3.99,
	gpuCount: 2,
	env: ['SECRET=hunter2'],
	runtime:
		status === 'RUNNING'
			? {
					gpus: [
						{gpuUtilPercent: util, memoryUtilPercent: 50},
						{gpuUtilPercent: util + 1, memoryUtilPercent: 51},
					],
					container: {cpuPercent: 30, memoryPercent: 40},
				}
			: null,
});

function setup() {
	const directory = mkdtempSync(join(tmpdir(), 'podtop-history-'));
	const file = join(directory, 'history', 'account.sqlite');
	let now = start;
	const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'example', keyFingerprint: '••••abcd'});
	const {db} = openHistoryForWriting(file, now);
	const recorder = createRecorder({store, db, file, now: () => now, live: false});
	const reader = createSqliteReader({db, file, ownsDatabase: false});
	return {
		file,
		store,
		writes,
		recorder,
		reader,
		db,
		tick(ms: number) {
			now += ms;
			return now;
		},
		now: () => now,
	};
}

let cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups) {
		cleanup();
	}

	cleanups = [];
});

describe('the recorder', () => {
	test('writes what changed, and the reader gives the series and the account at a moment back', async () => {
		const history = setup();
		cleanups.push(() => history.db.close());
		const {writes, recorder, reader} = history;
		writes.setEndpoints([{id: 'ep1', name: 'llama', workersMin: 0, workersMax: 3}], history.now());
		writes.setHealth('ep1', health(5, 100), history.now());
		writes.setPods([pod('p1', 90), pod('p2', 0, 'EXITED')], history.now());
		recorder.flush(history.now());

		// Ten polls 5 s apart: the queue grows, p1's use moves, p2 never changes.
		for (let index = 1; index <= 10; index++) {
			const at = history.tick(5000);
			writes.setHealth('ep1', health(5 + index, 100 + index * 2), at);
			writes.setPods([pod('p1', 90 - index), pod('p2', 0, 'EXITED')], at);
			recorder.flush(at);
		}

		const [queue] = await reader.series({kind: 'endpoint', keys: ['llama'], from: start, to: history.now()});
		expect(queue?.key).toBe('ep1');
		expect(queue?.tier).toBe('raw');
		expect(queue?.fields.slice(0, 3)).toEqual(['inQueue', 'inProgress', 'completed']);
		expect(queue?.points.map(point => point.last[0])).toEqual([5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);

		// p2 never changed after the first write: one sample, not eleven.
		const [p2] = await reader.series({kind: 'pod', keys: ['p2'], from: start, to: history.now()});
		expect(p2?.points).toHaveLength(1);
		expect(p2?.points[0]?.state).toBe('EXITED');
		const [p1] = await reader.series({kind: 'pod', keys: ['p1'], from: start, to: history.now()});
		expect(p1?.fields).toEqual(['costPerHr', 'gpuCount', 'up', 'cpuPercent', 'memoryPercent', 'gpu0.util', 'gpu0.memory', 'gpu1.util', 'gpu1.memory']);
		expect(p1?.points.at(-1)?.last).toEqual([3.99, 2, 1, 30, 40, 80, 50, 81, 51]);

		const past = await reader.stateAt(start + 22_000);
		expect(past?.tier).toBe('raw');
		expect(past?.endpoints.byId.ep1?.health?.jobs.inQueue).toBe(9);
		expect(past?.endpoints.byId.ep1?.record.name).toBe('llama');
		expect(past?.pods.byId.p1?.record.runtime?.gpus?.[0]?.gpuUtilPercent).toBe(86);
		expect(past?.pods.byId.p1?.record.imageName).toBe('runpod/pytorch');
		expect(past?.pods.byId.p2?.record.desiredStatus).toBe('EXITED');
		expect(past?.pods.byId.p2?.record.runtime).toBeNull();
		// Before anything was recorded, and in a gap long after, nothing is said.
		expect(await reader.stateAt(start - 1000)).toBeUndefined();
		expect(await reader.stateAt(start + 3_600_000)).toBeUndefined();
	});

	test("a record is written again only when its part changed, not at each poll that moves a pod's use", async () => {
		const history = setup();
		cleanups.push(() => history.db.close());
		const {writes, recorder, reader} = history;
		writes.setPods([pod('p1', 90), pod('p2', 10)], history.now());
		recorder.flush(history.now());
		// Every poll moves both pods' use; at the third, p1's image changes; keyframes (each minute) write no record either.
		for (let index = 1; index <= 24; index++) {
			const at = history.tick(5000);
			writes.setPods([{...pod('p1', 90 - index), imageName: index >= 3 ? 'runpod/pytorch:2' : 'runpod/pytorch'}, pod('p2', 10 + index)], at);
			recorder.flush(at);
		}

		const rows = history.db.prepare(`SELECT s.key, r.at, r.record FROM records r JOIN series s ON s.id = r.sid ORDER BY s.key, r.at`).raw().all() as Array<
			[string, number, string]
		>;
		expect(rows.map(([key, at]) => [key, at])).toEqual([
			['p1', start],
			['p1', start + 15_000],
			['p2', start],
		]);
		expect(JSON.parse(rows[1]![2]).imageName).toBe('runpod/pytorch:2');
		expect((await reader.stateAt(start + 10_000))?.pods.byId.p1?.record.imageName).toBe('runpod/pytorch');
		expect((await reader.stateAt(history.now()))?.pods.byId.p1?.record.imageName).toBe('runpod/pytorch:2');
	});

	test("finds each pod's last state by its place while the list's order holds, and by id when the order moves or the map is made anew", () => {
		const history = setup();
		cleanups.push(() => history.db.close());
		const {writes, recorder, db} = history;
		const written = (at: number) =>
			(
				db.prepare(`SELECT s.key, r.v FROM raw r JOIN series s ON s.id = r.sid WHERE r.at = ? AND s.kind = 'pod' ORDER BY s.key`).raw().all(at) as Array<
					[string, string]
				>
			).map(([key, v]) => `${key} ${(JSON.parse(v) as number[])[5]}`);
		writes.setPods([pod('a', 10), pod('b', 20), pod('c', 30)], history.now());
		recorder.flush(history.now());
		// The same order: only b moved.
		writes.setPods([pod('a', 10), pod('b', 21), pod('c', 30)], history.tick(5000));
		recorder.flush(history.now());
		expect(written(history.now())).toEqual(['b 21']);
		// A few rows read again (a new map, the same order): only c moved.
		writes.updatePods([pod('c', 31)], history.tick(5000));
		recorder.flush(history.now());
		expect(written(history.now())).toEqual(['c 31']);
		// The order moved, and a with it.
		writes.setPods([pod('c', 31), pod('a', 11), pod('b', 21)], history.tick(5000));
		recorder.flush(history.now());
		expect(written(history.now())).toEqual(['a 11']);
		// The same order again: b moved; then an id listed twice (the map holds the last) with c moved.
		writes.setPods([pod('c', 31), pod('a', 11), pod('b', 22)], history.tick(5000));
		recorder.flush(history.now());
		expect(written(history.now())).toEqual(['b 22']);
		writes.setPods([pod('c', 32), pod('a', 11), pod('a', 12), pod('b', 22)], history.tick(5000));
		recorder.flush(history.now());
		expect(written(history.now())).toEqual(['a 12', 'c 32']);
	});

	test('never stores the key or a pod env, and keeps the file private', async () => {
		const history = setup();
		cleanups.push(() => history.db.close());
		history.writes.setPods([pod('p1', 90)], history.now());
		history.recorder.flush(history.now());
		expect(readFileSync(history.file).includes('hunter2')).toBe(false);
		expect(statSync(history.file).mode & 0o777).toBe(0o600);
		expect(statSync(join(history.file, '..')).mode & 0o777).toBe(0o700);
	});

	test('things created, deleted and changing status are events; a deleted pod stays readable, marked deleted', async () => {
		const history = setup();
		cleanups.push(() => history.db.close());
		const {writes, recorder, reader} = history;
		writes.setPods([pod('p1', 90)], history.now());
		recorder.flush(history.now());
		writes.setPods([pod('p1', 90), pod('p2', 10)], history.tick(5000));
		recorder.flush(history.now());
		writes.setPods([pod('p1', 90, 'EXITED'), pod('p2', 10)], history.tick(5000));
		recorder.flush(history.now());
		writes.setPods([pod('p1', 90, 'EXITED')], history.tick(5000));
		recorder.flush(history.now());
		const events = await reader.events(start, history.now());
		expect(events.map(event => `${event.type} ${event.subject ?? ''}`)).toEqual(['created p2', 'status p1', 'deleted p2']);
		expect(events[1]?.data).toEqual({from: 'RUNNING', to: 'EXITED'});
		const [p2] = await reader.series({kind: 'pod', keys: ['p2'], from: start, to: history.now()});
		expect(p2?.deletedAt).toBe(history.now());
		expect(p2?.points.length).toBeGreaterThan(0);
	});

	test('a pod deleted and back again is one series, revived, its record and samples written again from its return', async () => {
		const history = setup();
		cleanups.push(() => history.db.close());
		const {writes, recorder, reader, db} = history;
		writes.setPods([pod('p1', 90), pod('p2', 10)], history.now());
		recorder.flush(history.now());
		writes.setPods([pod('p1', 90)], history.tick(5000));
		recorder.flush(history.now());
		const back = history.tick(5000);
		writes.setPods([pod('p1', 90), pod('p2', 10)], back);
		recorder.flush(back);
		writes.setPods([pod('p1', 90), pod('p2', 11)], history.tick(5000));
		recorder.flush(history.now());
		const [p2] = await reader.series({kind: 'pod', keys: ['p2'], from: start, to: history.now()});
		expect(p2?.deletedAt).toBeUndefined();
		expect(p2?.points.filter(point => point.at >= back).map(point => point.last[5])).toEqual([10, 11]);
		const records = db.prepare(`SELECT r.at FROM records r JOIN series s ON s.id = r.sid WHERE s.key = 'p2' ORDER BY r.at`).raw().all() as Array<[number]>;
		expect(records.map(([at]) => at)).toEqual([start, back]);
		expect(db.prepare(`SELECT count(*) FROM series WHERE key = 'p2'`).raw().get()).toEqual([1]);
	});

	test('rolls minutes and hours up, and the tiers answer wider windows', async () => {
		const history = setup();
		cleanups.push(() => history.db.close());
		const {writes, recorder, reader, db} = history;
		writes.setEndpoints([{id: 'ep1', name: 'llama'}], history.now());
		// Two hours and a bit of polls every 10 s: the queue is the minute of the hour.
		for (let second = 0; second <= 2 * 3600 + 600; second += 10) {
			const at = start + second * 1000;
			writes.setHealth('ep1', health(Math.floor(second / 60) % 60, second), at);
			recorder.flush(at);
		}

		const end = start + (2 * 3600 + 600) * 1000;
		const maintenance = createMaintenance({db, now: () => end + 60_000});
		await maintenance.run();
		const [minutes] = await reader.series({kind: 'endpoint', keys: ['ep1'], from: start, to: end, step: 60_000});
		expect(minutes?.tier).toBe('minute');
		// Each minute: six samples (and a keyframe), the queue equal to the minute.
		expect(minutes?.points[5]?.last[0]).toBe(5);
		expect(minutes?.points[5]?.min[0]).toBe(5);
		expect(minutes?.points[5]?.count).toBe(6);
		const [hours] = await reader.series({kind: 'endpoint', keys: ['ep1'], from: start, to: end, step: 3_600_000});
		expect(hours?.tier).toBe('hour');
		// Two closed hours, then the ten minutes of the hour still open, from the finer tiers (minutes, then the raw sample at 05:10).
		expect(hours?.points).toHaveLength(3);
		expect(hours?.points[2]).toMatchObject({at: start + 2 * 3_600_000, count: 61});
		expect([hours?.points[2]?.min[0], hours?.points[2]?.max[0]]).toEqual([0, 10]);
		expect(hours?.points[0]?.min[0]).toBe(0);
		expect(hours?.points[0]?.max[0]).toBe(59);
		expect(hours?.points[0]?.mean[0]).toBeCloseTo(29.5, 1);
		expect(hours?.points[0]?.count).toBe(360);
	});
	test("a poll's commit never copies the WAL into the file (past SQLite's 1,000 pages); the upkeep's round does", async () => {
		const {file, writes, recorder, db, tick, now} = setup();
		cleanups.push(() => {
			db.close();
		});
		const pageSize = (db.prepare('PRAGMA page_size').raw().get() as [number])[0];
		const walPages = () => statSync(`${file}-wal`).size / pageSize;
		const ids = Array.from({length: 2000}, (_, index) => `p${index}`);
		// Each poll moves every pod's use: some 20 pages of samples a poll, past 1,000 pages in the WAL.
		for (let poll = 0; walPages() < 1500; poll++) {
			writes.setPods(
				ids.map(id => pod(id, poll % 90)),
				tick(5000),
			);
			recorder.flush(now());
			expect(poll).toBeLessThan(500);
		}

		await createMaintenance({db, now}).run();
		// Copied into the file: the next poll writes the WAL from its start again, so it no longer grows.
		const size = walPages();
		writes.setPods(
			ids.map(id => pod(id, 95)),
			tick(5000),
		);
		recorder.flush(now());
		expect(walPages()).toBe(size);
	});
});

import {mkdtempSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, describe, expect, test} from 'vitest';
import type {Health} from '../../source/api/job-types.js';
import type {WorkerRecord} from '../../source/model/worker.js';
import {pastState} from '../../source/dashboard/display-store.js';
import {eventSummary} from '../../source/headless/events-text.js';
import {openHistoryForWriting} from '../../source/history/history-file.js';
import {createRecorder} from '../../source/history/recorder.js';
import {createSqliteReader} from '../../source/history/sqlite-reader.js';
import {createPodtopStore} from '../../source/store/create-store.js';

const start = Date.parse('2026-11-20T03:00:00Z');

const health = (inQueue: number, completed: number): Health => ({
	jobs: {completed, failed: 0, inProgress: 0, inQueue, retried: 0},
	workers: {idle: 0, initializing: 0, ready: 0, running: 0, throttled: 1, unhealthy: 0},
});

function setup() {
	const directory = mkdtempSync(join(tmpdir(), 'podtop-workers-'));
	const file = join(directory, 'history', 'account.sqlite');
	let now = start;
	const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'example', keyFingerprint: '••••abcd'});
	const {db} = openHistoryForWriting(file, now);
	const recorder = createRecorder({store, db, file, now: () => now, live: false});
	const reader = createSqliteReader({db, file, ownsDatabase: false});
	return {
		store,
		writes,
		recorder,
		reader,
		db,
		/** Moves the clock on and writes what changed then. */
		at(seconds: number) {
			now = start + seconds * 1000;
			return now;
		},
		flush() {
			recorder.flush(now);
		},
	};
}

let cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups) {
		cleanup();
	}

	cleanups = [];
});

const worker = (id: string, status: string, startedAt: number, uptimeSeconds: number): WorkerRecord => ({
	id,
	status,
	isStale: false,
	gpuTypeId: 'NVIDIA A40',
	gpuCount: 1,
	dataCenterId: 'EU-RO-1',
	startedAt,
	uptimeSeconds,
});

describe('diagnoses and worker lists in the history file', () => {
	test('a verdict that changes (no capacity, then a crash loop) is one diagnosis event with its figures, and one that says it cleared; uptimes alone write nothing', async () => {
		const history = setup();
		cleanups.push(() => history.db.close());
		const {writes, reader} = history;
		let now = history.at(0);
		writes.setEndpoints([{id: 'ep1', name: 'llava', workersMax: 2}], now);
		writes.setHealth('ep1', health(3, 10), now);
		writes.setWorkers('ep1', {endpointId: 'ep1', workers: [worker('w1', 'THROTTLED', now - 40_000, 40)], readAt: now});
		history.flush();
		// Only the uptime moved on: no list written again, no diagnosis.
		now = history.at(30);
		writes.setHealth('ep1', health(3, 10), now);
		writes.setWorkers('ep1', {endpointId: 'ep1', workers: [worker('w1', 'THROTTLED', start - 40_000, 70)], readAt: now});
		history.flush();
		// Its uptime reset: a restart, with jobs waiting.
		now = history.at(60);
		writes.setHealth('ep1', health(4, 10), now);
		writes.setWorkers('ep1', {endpointId: 'ep1', workers: [worker('w1', 'THROTTLED', now - 2000, 2)], readAt: now});
		history.flush();
		// Many polls later the queue is served and the restart is out of the window: cleared.
		now = history.at(20 * 60);
		writes.setHealth('ep1', health(0, 20), now);
		writes.setWorkers('ep1', {endpointId: 'ep1', workers: [worker('w1', 'RUNNING', start + 58_000, 1142)], readAt: now});
		history.flush();
		const events = await reader.events(start - 1, now + 1);
		const diagnoses = events.filter(event => event.type === 'diagnosis');
		expect(diagnoses.map(event => [event.at - start, event.subject, event.name, event.data.word])).toEqual([
			[0, 'ep1', 'llava', 'no capacity'],
			[60_000, 'ep1', 'llava', 'crash loop'],
			[20 * 60_000, 'ep1', 'llava', ''],
		]);
		expect(eventSummary(diagnoses[1]!)).toMatch(/^crash loop: 1 worker restarted 1 time \(uptime reset\)/);
		expect(diagnoses[1]!.data.queue).toBe(4);
		expect(eventSummary(diagnoses[2]!)).toBe('cleared');
		const lists = events.filter(event => event.type === 'workers');
		expect(lists.map(event => [event.at - start, eventSummary(event)])).toEqual([
			[0, '1 worker: w1 new THROTTLED'],
			[60_000, '1 worker: w1 THROTTLED restarted'],
			[20 * 60_000, '1 worker: w1 THROTTLED → RUNNING'],
		]);
	});

	test('the time cursor shows the workers an endpoint had at a moment, and none once they were no longer read', async () => {
		const history = setup();
		cleanups.push(() => history.db.close());
		const {writes, reader, store} = history;
		let now = history.at(0);
		writes.setEndpoints([{id: 'ep1', name: 'llava', workersMax: 2}], now);
		writes.setHealth('ep1', health(1, 10), now);
		writes.setWorkers('ep1', {
			endpointId: 'ep1',
			endpointVersion: 3,
			workers: [worker('w1', 'INITIALIZING', now, 0), worker('w2', 'RUNNING', now - 60_000, 60)],
			readAt: now,
		});
		history.flush();
		now = history.at(90);
		writes.setHealth('ep1', health(2, 10), now);
		writes.setWorkers('ep1', {endpointId: 'ep1', endpointVersion: 3, workers: [worker('w1', 'UNHEALTHY', start, 90)], readAt: now});
		history.flush();
		now = history.at(150);
		writes.setHealth('ep1', health(0, 12), now);
		writes.forgetWorkers(['ep1']);
		history.flush();
		const live = store.getState();
		const shown = async (seconds: number) => {
			const past = pastState(live, await reader.stateAt(start + seconds * 1000), start + seconds * 1000);
			const workers = past.workers.byEndpoint.ep1;
			return workers ? workers.list.workers.map(each => `${each.id} ${each.status} up ${each.uptimeSeconds}s`) : past.workers.errors.ep1;
		};

		expect(await shown(30)).toEqual(['w1 INITIALIZING up 0s', 'w2 RUNNING up 60s']);
		expect(await shown(120)).toEqual(['w1 UNHEALTHY up 90s']);
		expect(await shown(155)).toBe('none recorded then (not being read)');
		const at120 = await reader.stateAt(start + 120_000);
		expect(at120?.workers?.ep1?.list.endpointVersion).toBe(3);
		expect(at120?.workers?.ep1?.tracks.w1).toMatchObject({statusSince: start + 90_000, restarts: 0});
		const lists = (await reader.events(start - 1, now + 1)).filter(event => event.type === 'workers');
		expect(lists.map(event => eventSummary(event))).toEqual([
			'2 workers: w1 new INITIALIZING, w2 new RUNNING',
			'1 worker: w1 INITIALIZING → UNHEALTHY, w2 gone (RUNNING)',
			'workers no longer read',
		]);
	});

	test('a list written before podtop stopped does not stand for the moments after: the next recorder says it is no longer read', async () => {
		const history = setup();
		cleanups.push(() => history.db.close());
		const {writes, reader, recorder, db} = history;
		let now = history.at(0);
		writes.setEndpoints([{id: 'ep1', name: 'llava', workersMax: 2}], now);
		writes.setHealth('ep1', health(1, 10), now);
		writes.setWorkers('ep1', {endpointId: 'ep1', workers: [worker('w1', 'RUNNING', now, 0)], readAt: now});
		history.flush();
		recorder.stop();
		// Started again later, its workers not read.
		now = history.at(600);
		const next = createPodtopStore({mode: 'live', apiHost: 'example', keyFingerprint: '••••abcd'});
		const again = createRecorder({store: next.store, db, file: 'account.sqlite', now: () => now, live: false});
		next.writes.setEndpoints([{id: 'ep1', name: 'llava', workersMax: 2}], now);
		next.writes.setHealth('ep1', health(0, 11), now);
		again.flush(now);
		again.stop();
		const lists = (await reader.events(start - 1, now + 1)).filter(event => event.type === 'workers');
		expect(lists.map(event => [event.at - start, eventSummary(event)])).toEqual([
			[0, '1 worker: w1 new RUNNING'],
			[600_000, 'workers no longer read'],
		]);
		expect((await reader.stateAt(now))?.workers).toEqual({});
	});
});

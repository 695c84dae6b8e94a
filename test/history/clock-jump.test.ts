import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {openHistoryForWriting} from '../../source/history/history-file.js';
import {createMaintenance} from '../../source/history/maintenance.js';
import {createRecorder} from '../../source/history/recorder.js';
import {createSqliteReader} from '../../source/history/sqlite-reader.js';
import {createPodtopStore} from '../../source/store/create-store.js';
import {runningPod} from '../helpers/running-pod.js';

const start = Date.parse('2026-11-20T03:00:00Z');
const day = 86_400_000;
const year = 365 * day;

const pod = runningPod;

let root: string;
beforeAll(() => {
	root = mkdtempSync(join(tmpdir(), 'podtop-clock-'));
});

afterAll(() => {
	rmSync(root, {recursive: true, force: true});
});

/** A recorder on an injected clock (`clock.now`), a reader of the same file, every line said, and a poll at `clock.now` with GPU utilisation `util`. */
function recording(name: string, clock: {now: number}) {
	const file = join(root, name, 'account.sqlite');
	const lines: string[] = [];
	const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'example', keyFingerprint: '••••abcd'});
	const {db} = openHistoryForWriting(file, clock.now);
	const open = () => createRecorder({store, db, file, now: () => clock.now, live: false, retryMs: 1000, onState: (_, line) => lines.push(line)});
	let recorder = open();
	const reader = createSqliteReader({db, file, ownsDatabase: false});
	const max = (table: string) => (db.prepare(`SELECT max(at) FROM ${table}`).raw().get() as [number | null])[0];
	return {
		db,
		lines,
		reader,
		max,
		poll(util: number) {
			writes.setPods([pod('p1', util)], clock.now);
			recorder.flush(clock.now);
		},
		/** A new process on the same file (the clock as it is now). */
		reopen() {
			recorder.stop();
			recorder = open();
		},
		recorder: () => recorder,
		async utils(from = start - year) {
			const [series] = await reader.series({kind: 'pod', keys: ['p1'], from, to: clock.now + 2 * year});
			return series!.points.map(point => [point.at, point.last[series!.fields.indexOf('gpu0.util')]]);
		},
		close() {
			recorder.stop();
			db.close();
		},
	};
}

describe('a forward clock jump', () => {
	test('forward a day, then back: recording goes on at once (no wait for the clock), the future polls set aside, said once and in the timeline', async () => {
		const clock = {now: start};
		const history = recording('day', clock);
		history.poll(10);
		clock.now += 5000;
		history.poll(20);
		// The clock jumps a day ahead for two polls, then is set right.
		const real = clock.now;
		clock.now += day;
		history.poll(30);
		clock.now += 5000;
		history.poll(40);
		clock.now = real + 5000;
		history.poll(50);
		clock.now += 5000;
		history.poll(60);

		expect(history.recorder().state().state).toBe('recording');
		expect(await history.utils()).toEqual([
			[start, 10],
			[start + 5000, 20],
			[real + 5000, 50],
			[real + 10_000, 60],
		]);
		for (const table of ['polls', 'raw', 'events']) {
			expect(history.max(table)).toBeLessThanOrEqual(clock.now);
		}

		expect(history.lines).toEqual([
			`history: the clock is ${day / 1000} s behind the last write; 2 polls stamped after now (up to ${new Date(real + day + 5000).toISOString()}) were set aside, recording goes on`,
		]);
		const events = await history.reader.events(start, clock.now);
		expect(events.find(event => event.type === 'recording.clock')?.data).toEqual({wentBackMs: day, setAsidePolls: 2, from: real + day, to: real + day + 5000});
		history.close();
	});

	test('a file holding polls stamped a year ahead (written by a clock ahead of this one): set aside when recording starts, with their rollups', async () => {
		const clock = {now: start + year};
		const history = recording('year', clock);
		const maintenance = createMaintenance({db: history.db, now: () => clock.now});
		for (let poll = 0; poll < 30; poll++) {
			history.poll(poll);
			clock.now += 5000;
		}

		clock.now += 120_000;
		await maintenance.run();
		expect(history.max('minute')).toBeGreaterThan(start + year);
		// The clock is right again, and podtop starts again on the same file.
		clock.now = start;
		history.reopen();
		history.poll(77);
		clock.now += 5000;
		history.poll(78);
		expect(history.recorder().state().state).toBe('recording');
		expect(await history.utils()).toEqual([
			[start, 77],
			[start + 5000, 78],
		]);
		for (const table of ['polls', 'raw', 'minute', 'hour', 'events', 'records']) {
			expect(history.max(table) ?? 0).toBeLessThanOrEqual(clock.now);
		}

		expect(history.lines).toHaveLength(1);
		expect(history.lines[0]).toContain('30 polls stamped after now');
		// The present's minutes are rolled up again from here on.
		clock.now += 120_000;
		history.poll(79);
		await maintenance.run();
		expect(history.max('minute')).toBe(start);
		maintenance.stop();
		history.close();
	});
});

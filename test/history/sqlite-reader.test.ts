import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, describe, expect, test} from 'vitest';
import type {PodRecord} from '../../source/model/pod.js';
import {openHistoryForWriting} from '../../source/history/history-file.js';
import {createMaintenance} from '../../source/history/maintenance.js';
import {createRecorder} from '../../source/history/recorder.js';
import {createSqliteReader} from '../../source/history/sqlite-reader.js';
import {createPodtopStore} from '../../source/store/create-store.js';

const start = Date.parse('2026-11-20T03:00:00Z');

const pod = (id: string, name: string, util: number): PodRecord => ({
	id,
	name,
	desiredStatus: 'RUNNING',
	costPerHr: 1.5,
	gpuCount: 1,
	runtime: {gpus: [{gpuUtilPercent: util, memoryUtilPercent: 20}], container: {cpuPercent: 10, memoryPercent: 20}},
});

let cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups) {
		cleanup();
	}

	cleanups = [];
});

function setup() {
	const directory = mkdtempSync(join(tmpdir(), 'podtop-reader-'));
	const file = join(directory, 'account.sqlite');
	const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'example', keyFingerprint: '••••abcd'});
	const {db} = openHistoryForWriting(file, start);
	let now = start;
	const recorder = createRecorder({store, db, file, now: () => now, live: false});
	const reader = createSqliteReader({db, file, ownsDatabase: false});
	cleanups.push(() => {
		recorder.stop();
		db.close();
		rmSync(directory, {recursive: true, force: true});
	});
	const poll = (at: number, pods: readonly PodRecord[]) => {
		now = at;
		writes.setPods(pods, at);
		recorder.flush(at);
	};

	return {db, reader, poll};
}

describe('the SQLite reader', () => {
	test('a name names the thing alive that has it, else the newest of those gone; an id names its own thing', async () => {
		const {reader, poll} = setup();
		poll(start, [pod('old', 'trainer', 10)]);
		// `old` is deleted, then `new` takes its name; `other` is renamed to it later and deleted.
		poll(start + 5000, [pod('new', 'trainer', 20), pod('other', 'spare', 30)]);
		poll(start + 10_000, [pod('new', 'trainer', 21), pod('other', 'trainer', 31)]);
		poll(start + 15_000, [pod('new', 'trainer', 22)]);
		const read = async (key: string) => (await reader.series({kind: 'pod', keys: [key], from: start, to: start + 15_000}))[0]?.key;
		expect(await read('trainer')).toBe('new');
		expect(await read('old')).toBe('old');
		expect(await read('other')).toBe('other');
		expect(await read('nobody')).toBeUndefined();
		poll(start + 20_000, []);
		// All gone: the newest of them (`other` and `new` were first seen together; `new` was listed first, so it has the lower id).
		expect(['new', 'other']).toContain(await read('trainer'));
		expect(await read('old')).toBe('old');
	});

	test('many things read together are what each reads alone, in every tier and across their edges', async () => {
		const {db, reader, poll} = setup();
		const end = start + 3 * 3_600_000 + 10 * 60_000;
		for (let at = start; at <= end; at += 10_000) {
			const second = (at - start) / 1000;
			// Pods come and go: p3 only in the second hour.
			const pods = [pod('p1', 'one', second % 97), pod('p2', 'two', 50)];
			if (second >= 3600 && second < 7200) {
				pods.push(pod('p3', 'three', second % 13));
			}

			poll(at, pods);
		}

		await createMaintenance({db, now: () => end + 60_000}).run();
		const keys = ['p1', 'two', 'p3', 'missing', 'p1'];
		for (const [from, to, step] of [
			[start, end, undefined],
			[start, end, 60_000],
			[start + 1_800_000, end, 3_600_000],
			[end - 600_000, end, 30_000],
			[start + 3_590_000, start + 7_210_000, 300_000],
		] as const) {
			const together = await reader.series({kind: 'pod', keys, from, to, step});
			const alone = await Promise.all(keys.map(async key => reader.series({kind: 'pod', keys: [key], from, to, step})));
			expect(together).toEqual(alone.flat());
			expect(together.map(series => series.key)).toEqual(['p1', 'p2', 'p3', 'p1']);
			expect(together[0]!.points.length).toBeGreaterThan(0);
		}
	});
});

import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, describe, expect, test} from 'vitest';
import type {PodRecord} from '../../source/model/pod.js';
import {openHistoryForWriting} from '../../source/history/history-file.js';
import {createRecorder} from '../../source/history/recorder.js';
import {createSqliteReader} from '../../source/history/sqlite-reader.js';
import {createPodtopStore} from '../../source/store/create-store.js';

// A minute's start plus 1 s: the first write is the minute's keyframe, the next ones are not.
const start = Date.parse('2026-11-20T03:00:01Z');

const pod = (fields: {uptime: number; util: number; image?: string; name?: string}): PodRecord => ({
	id: 'p1',
	name: fields.name ?? 'trainer',
	imageName: fields.image ?? 'runpod/pytorch',
	desiredStatus: 'RUNNING',
	costPerHr: 2.49,
	gpuCount: 1,
	runtime: {uptimeInSeconds: fields.uptime, gpus: [{gpuUtilPercent: fields.util, memoryUtilPercent: 40}], container: {cpuPercent: 10, memoryPercent: 20}},
});

let cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups) {
		cleanup();
	}

	cleanups = [];
});

function setup() {
	const directory = mkdtempSync(join(tmpdir(), 'podtop-changes-'));
	const file = join(directory, 'history.sqlite');
	const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'example', keyFingerprint: '••••abcd'});
	const {db} = openHistoryForWriting(file, start);
	const recorder = createRecorder({store, db, file, now: () => start, live: false});
	const reader = createSqliteReader({db, file, ownsDatabase: false});
	cleanups.push(() => {
		db.close();
		rmSync(directory, {recursive: true, force: true});
	});
	return {writes, recorder, reader, db};
}

describe('what a flush writes', () => {
	test('a pod whose record moved but whose figures did not (its uptime) gets no new sample; a new image is a new record, a new name renames the series', async () => {
		const {writes, recorder, reader, db} = setup();
		writes.setPods([pod({uptime: 100, util: 50})], start);
		recorder.flush(start);
		// Five polls in the same minute: only the uptime moves, then the use, then the image, then the name.
		writes.setPods([pod({uptime: 105, util: 50})], start + 5000);
		recorder.flush(start + 5000);
		writes.setPods([pod({uptime: 110, util: 50})], start + 10_000);
		recorder.flush(start + 10_000);
		writes.setPods([pod({uptime: 115, util: 70})], start + 15_000);
		recorder.flush(start + 15_000);
		writes.setPods([pod({uptime: 120, util: 70, image: 'runpod/pytorch:2'})], start + 20_000);
		recorder.flush(start + 20_000);
		writes.setPods([pod({uptime: 125, util: 70, image: 'runpod/pytorch:2', name: 'trainer-2'})], start + 25_000);
		recorder.flush(start + 25_000);

		const [series] = await reader.series({kind: 'pod', keys: ['p1'], from: start, to: start + 60_000});
		expect(series?.points.map(point => [point.at - start, point.last[5]])).toEqual([
			[0, 50],
			[15_000, 70],
		]);
		expect(series?.name).toBe('trainer-2');
		const records = db.prepare(`SELECT at - ?, record ->> 'imageName', record ->> 'name' FROM records ORDER BY at`).raw().all(start);
		expect(records).toEqual([
			[0, 'runpod/pytorch', 'trainer'],
			[20_000, 'runpod/pytorch:2', 'trainer'],
			[25_000, 'runpod/pytorch:2', 'trainer-2'],
		]);
		// The uptime is never part of a record.
		expect(db.prepare(`SELECT count(*) FROM records WHERE record LIKE '%uptime%'`).raw().get()).toEqual([0]);
		expect((await reader.stateAt(start + 17_000))?.pods.byId.p1?.record.imageName).toBe('runpod/pytorch');
		expect((await reader.stateAt(start + 22_000))?.pods.byId.p1?.record.imageName).toBe('runpod/pytorch:2');
	});

	test("a running pod's start is kept in its record, written again when it restarts, not as its uptime wobbles; the past tells its uptime", async () => {
		const {writes, recorder, reader, db} = setup();
		// Polled every 5 s, answered 0.4-1.6 s late now and then (the uptime is whole seconds): one start.
		const late = [0, 400, 1600, 900, 0, 1200];
		for (const [index, delay] of late.entries()) {
			const at = start + index * 5000 + delay;
			writes.setPods([pod({uptime: 100 + index * 5, util: 50 + index})], at);
			recorder.flush(at);
		}

		// It restarts: up 3 s at 30 s.
		writes.setPods([pod({uptime: 3, util: 10})], start + 30_000);
		recorder.flush(start + 30_000);
		writes.setPods([pod({uptime: 8, util: 12})], start + 35_000);
		recorder.flush(start + 35_000);
		const starts = db.prepare(`SELECT at - ?, (record ->> 'startedAt') - ? FROM records ORDER BY at`).raw().all(start, start);
		expect(starts).toEqual([
			[0, -100_000],
			[30_000, 27_000],
		]);
		// The Pods pane at the cursor: the uptime at that moment, whatever poll the sample was.
		const past = await reader.stateAt(start + 22_000);
		expect(past?.pods.byId.p1?.record.runtime?.uptimeInSeconds).toBe(122);
		expect((await reader.stateAt(start + 36_000))?.pods.byId.p1?.record.runtime?.uptimeInSeconds).toBe(9);
		// Read back, the record is the service's: no start of the history's in it.
		expect(JSON.stringify(past?.pods.byId.p1?.record)).not.toContain('startedAt');
	});

	test('figures the service does not give are stored null and are no change while they stay unknown; a GPU more or less is one', async () => {
		const {writes, recorder, db} = setup();
		const unknown = (gpus: number, util: number | null): PodRecord => ({
			...pod({uptime: 100, util: 0}),
			runtime: {uptimeInSeconds: 100, gpus: Array.from({length: gpus}, () => ({gpuUtilPercent: util, memoryUtilPercent: null})), container: null},
		});
		writes.setPods([unknown(1, null)], start);
		recorder.flush(start);
		writes.setPods([{...unknown(1, null), costPerHr: 2.49}], start + 5000);
		recorder.flush(start + 5000);
		writes.setPods([unknown(2, null)], start + 10_000);
		recorder.flush(start + 10_000);
		writes.setPods([unknown(2, 30)], start + 15_000);
		recorder.flush(start + 15_000);
		writes.setPods([unknown(1, 30)], start + 20_000);
		recorder.flush(start + 20_000);
		expect(db.prepare(`SELECT r.at - ?, r.v FROM raw r JOIN series s ON s.id = r.sid WHERE s.kind = 'pod' ORDER BY r.at`).raw().all(start)).toEqual([
			[0, '[2.49,1,1,null,null,null,null]'],
			[10_000, '[2.49,1,1,null,null,null,null,null,null]'],
			[15_000, '[2.49,1,1,null,null,30,null,30,null]'],
			[20_000, '[2.49,1,1,null,null,30,null]'],
		]);
	});

	test('the next minute writes every thing whole again, changed or not', async () => {
		const {writes, recorder, reader} = setup();
		writes.setPods([pod({uptime: 100, util: 50})], start);
		recorder.flush(start);
		writes.setPods([pod({uptime: 105, util: 50})], start + 60_000);
		recorder.flush(start + 60_000);
		recorder.flush(start + 120_000);
		const [series] = await reader.series({kind: 'pod', keys: ['p1'], from: start, to: start + 180_000});
		expect(series?.points.map(point => point.at - start)).toEqual([0, 60_000, 120_000]);
	});

	test('a thing written again unchanged at keyframes writes its figures as they are after they change, at the change and at the next keyframes', () => {
		const {writes, recorder, db} = setup();
		const at = (seconds: number, util: number) => {
			writes.setPods([pod({uptime: 100, util})], start + seconds * 1000);
			recorder.flush(start + seconds * 1000);
		};

		// The same record each poll: the pod's state is kept, written again only at each minute's keyframe.
		at(0, 50);
		at(60, 50);
		at(120, 50);
		at(125, 70);
		at(180, 70);
		at(185, 50);
		at(240, 50);
		expect(
			db.prepare(`SELECT (r.at - ?) / 1000, r.v ->> 5 FROM raw r JOIN series s ON s.id = r.sid WHERE s.kind = 'pod' ORDER BY r.at`).raw().all(start),
		).toEqual([
			[0, 50],
			[60, 50],
			[120, 50],
			[125, 70],
			[180, 70],
			[185, 50],
			[240, 50],
		]);
	});

	test("the account's running pods and $/h are the pods' in the list's order, counted in the pass over the pods or, when the ids as keys are in another order, by the list", async () => {
		const {writes, recorder, reader} = setup();
		const running = (id: string, costPerHr: number, desiredStatus = 'RUNNING'): PodRecord => ({...pod({uptime: 100, util: 50}), id, costPerHr, desiredStatus});
		// Ids like '10' and '2' are an object's first keys, in number order: not the list's.
		const lists = [
			[running('x', 0.1), running('y', 0.2), running('z', 0.3, 'EXITED')],
			[running('x', 0.1), running('10', 0.7), running('2', 1.1), running('y', 0.2, 'EXITED')],
			[running('x', 0.15), running('y', 0.2), running('z', 0.3)],
		];
		// The account's figures count endpoints too: written once that list is in as well.
		writes.setEndpoints([], start);
		for (const [index, list] of lists.entries()) {
			writes.setPods(list, start + index * 5000);
			recorder.flush(start + index * 5000);
		}

		const [series] = await reader.series({kind: 'account', keys: ['account'], from: start, to: start + 60_000});
		expect(series?.points.map(point => point.last.slice(0, 3))).toEqual([
			[0.3, 2, 3],
			[1.9, 3, 4],
			[0.65, 3, 3],
		]);
	});
});

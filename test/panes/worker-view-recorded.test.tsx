import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {expect, onTestFinished, test} from 'vitest';
import type {Engine} from '../../source/engine/create-engine.js';
import {openHistoryForWriting} from '../../source/history/history-file.js';
import {createRecorder} from '../../source/history/recorder.js';
import {createSqliteReader} from '../../source/history/sqlite-reader.js';
import type {WorkerRecord} from '../../source/model/worker.js';
import {WorkerView} from '../../source/panes/worker-view.js';
import {createPodtopStore} from '../../source/store/create-store.js';
import {frameMatching, renderWith} from '../helpers/ui-fixture.js';

const worker = (status: string, uptimeSeconds: number, startedAt: number): WorkerRecord => ({
	id: 'w1',
	status,
	isStale: false,
	gpuTypeId: 'NVIDIA A40',
	gpuCount: 1,
	dataCenterId: 'EU-RO-1',
	startedAt,
	uptimeSeconds,
});

test('a worker seen by an earlier podtop: its status changes come back from the history file, before what this one saw', async () => {
	const directory = mkdtempSync(join(tmpdir(), 'podtop-worker-view-'));
	const file = join(directory, 'account.sqlite');
	const start = Date.now() - 600_000;
	let now = start;
	const {db} = openHistoryForWriting(file, now);
	onTestFinished(() => {
		db.close();
		rmSync(directory, {recursive: true, force: true});
	});
	// The earlier podtop: w1 INITIALIZING, then RUNNING, then restarted, recorded as it saw them.
	const earlier = createPodtopStore({mode: 'live', apiHost: 'example', keyFingerprint: '••••abcd'});
	const recorder = createRecorder({store: earlier.store, db, file, now: () => now, live: false});
	earlier.writes.setEndpoints([{id: 'ep1', name: 'llava', workersMax: 2}], now);
	const read = (writes: typeof earlier.writes, record: WorkerRecord) => {
		writes.setWorkers('ep1', {endpointId: 'ep1', workers: [record], readAt: now});
	};

	read(earlier.writes, worker('INITIALIZING', 5, start - 5000));
	recorder.flush(now);
	now += 60_000;
	read(earlier.writes, worker('RUNNING', 65, start - 5000));
	recorder.flush(now);
	now += 60_000;
	read(earlier.writes, worker('RUNNING', 3, now - 3000));
	recorder.flush(now);
	recorder.stop();
	// This podtop first sees it later, UNHEALTHY.
	now += 60_000;
	const later = createPodtopStore({mode: 'live', apiHost: 'example', keyFingerprint: '••••abcd'});
	later.writes.setEndpoints([{id: 'ep1', name: 'llava', workersMax: 2}], now);
	read(later.writes, worker('UNHEALTHY', 63, now - 63_000));
	const reader = createSqliteReader({db, file, ownsDatabase: false});
	const engine = {readOnly: false, history: {reader: () => reader}} as unknown as Engine;
	const {lastFrame} = renderWith(later, <WorkerView endpointId='ep1' workerId='w1' width={140} height={24} />, {engine});
	const frame = await frameMatching(lastFrame, /Status changes \(4\)/);
	const rows = frame.split('\n').filter(line => /(seen|recorded)\s*$/.test(line));
	expect(rows.map(line => /(INITIALIZING|RUNNING|UNHEALTHY) +(.+?) +(seen|recorded)/.exec(line)?.slice(1))).toEqual([
		['UNHEALTHY', 'listed', 'seen'],
		['RUNNING', 'restarted (its uptime reset)', 'recorded'],
		['RUNNING', 'status changed', 'recorded'],
		['INITIALIZING', 'listed', 'recorded'],
	]);
});

import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, expect, test} from 'vitest';
import type {WorkerRecord} from '../../source/model/worker.js';
import {createDisplayStore, pastState} from '../../source/dashboard/display-store.js';
import {openHistoryForWriting} from '../../source/history/history-file.js';
import {createRecorder} from '../../source/history/recorder.js';
import {createSqliteReader} from '../../source/history/sqlite-reader.js';
import {EndpointDetail} from '../../source/panes/endpoint-detail.js';
import {frameMatching, health, renderWith, testStore} from '../helpers/ui-fixture.js';

const start = Date.parse('2026-11-20T03:00:00Z');

const worker = (id: string, status: string, uptimeSeconds: number): WorkerRecord => ({
	id,
	status,
	isStale: false,
	version: 2,
	gpuTypeId: 'NVIDIA L40',
	gpuCount: 1,
	dataCenterId: 'US-TX-3',
	uptimeSeconds,
	startedAt: start - uptimeSeconds * 1000,
});

let cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups) {
		cleanup();
	}

	cleanups = [];
});

test('with the time cursor in the past, an endpoint’s details show the workers it had then and their states, not today’s', async () => {
	const directory = mkdtempSync(join(tmpdir(), 'podtop-past-workers-'));
	const file = join(directory, 'account.sqlite');
	const live = testStore();
	const {db} = openHistoryForWriting(file, start);
	const recorder = createRecorder({store: live.store, db, file, now: () => start, live: false});
	cleanups.push(() => {
		db.close();
		rmSync(directory, {recursive: true, force: true});
	});
	const {writes} = live;
	const poll = (seconds: number, workers: WorkerRecord[]) => {
		const at = start + seconds * 1000;
		writes.setHealth('ep1', health({inQueue: 2, inProgress: 0, running: 1}), at);
		writes.setWorkers('ep1', {endpointId: 'ep1', endpointVersion: 2, workers, readAt: at});
		recorder.flush(at);
	};

	writes.setEndpoints([{id: 'ep1', name: 'llava', workersMin: 1, workersMax: 3}], start);
	poll(0, [worker('w-early', 'INITIALIZING', 0), worker('w-steady', 'RUNNING', 600)]);
	poll(120, [worker('w-early', 'UNHEALTHY', 120)]);
	poll(240, [worker('w-late', 'IDLE', 5)]);
	const reader = createSqliteReader({db, file, ownsDatabase: false});
	const display = createDisplayStore(live.store);
	cleanups.push(display.stop);
	const show = (seconds: number) => {
		const at = start + seconds * 1000;
		display.show(pastState(live.store.getState(), reader.stateAtNow!(at), at));
		return at;
	};

	const at = show(60);
	const {lastFrame, view} = renderWith({store: display}, <EndpointDetail endpointId='ep1' width={200} height={40} />, {
		view: {columns: 200, rows: 40, cursor: at},
	});
	const then = await frameMatching(lastFrame, /w-steady/);
	expect(then).toMatch(/Workers \(2\)/);
	expect(then).toMatch(/w-early\s+INITIALIZING/);
	// Its uptime as it was at the moment: read at the poll, a minute before.
	expect(then).toMatch(/w-steady\s+RUNNING.*11m/);
	expect(then).not.toMatch(/w-late/);
	view.dispatch({type: 'cursor', at: show(180)});
	const later = await frameMatching(lastFrame, /w-early\s+UNHEALTHY/);
	expect(later).toMatch(/Workers \(1\)/);
	expect(later).not.toMatch(/w-steady|w-late/);
});

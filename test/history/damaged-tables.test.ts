import {closeSync, mkdtempSync, openSync, readdirSync, rmSync, writeSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import Database from 'libsql';
import {afterAll, afterEach, beforeAll, describe, expect, test} from 'vitest';
import {historyFileName, openHistoryForWriting} from '../../source/history/history-file.js';
import {openHistory, type History} from '../../source/history/open-history.js';
import {createRecorder} from '../../source/history/recorder.js';
import {createPodtopStore} from '../../source/store/create-store.js';
import {runningPod} from '../helpers/running-pod.js';

const start = Date.parse('2026-11-20T03:00:00Z');
const service = {apiUrl: 'https://api.example/v2', graphqlUrl: 'https://api.example/graphql', apiKey: 'rpa_DAMAGEDTABLESKEY0123456789'};

const pod = runningPod;

const single = (db: InstanceType<typeof Database>, sql: string) => (db.prepare(sql).raw().get() as [unknown])[0];

let root: string;
let history: History | undefined;
beforeAll(() => {
	root = mkdtempSync(join(tmpdir(), 'podtop-damaged-'));
});

afterAll(() => {
	rmSync(root, {recursive: true, force: true});
});

afterEach(async () => {
	await history?.close();
	history = undefined;
});

/** A real history file of ten minutes of polls (50 pods), then the pages of one table overwritten with noise, the header and `meta` intact. */
function damagedFile(directory: string, table: string): string {
	const file = join(directory, historyFileName(service));
	let now = start;
	const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'example', keyFingerprint: '••••abcd'});
	const {db} = openHistoryForWriting(file, now);
	const recorder = createRecorder({store, db, file, now: () => now, live: false});
	for (let poll = 0; poll < 120; poll++) {
		now += 5000;
		writes.setPods(
			Array.from({length: 50}, (_, index) => pod(`p${index}`, (index + poll) % 100)),
			now,
		);
		recorder.flush(now);
	}

	recorder.stop();
	const pageSize = single(db, 'PRAGMA page_size') as number;
	const root = single(db, `SELECT rootpage FROM sqlite_master WHERE name = '${table}'`) as number;
	// Every page in the file itself (none left in the WAL to be read instead).
	db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
	db.close();
	const fd = openSync(file, 'r+');
	writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (root - 1) * pageSize);
	closeSync(fd);
	return file;
}

describe('a history file damaged inside its tables', () => {
	test.each([
		{table: 'raw', where: 'the first write fails'},
		{table: 'polls', where: 'the recorder fails to open'},
		{table: 'minute', where: 'the upkeep fails'},
	])(
		'the $table table damaged ($where): moved aside as <name>.corrupt-<time> when podtop starts, said once, and recording goes on in a new file',
		async ({table}) => {
			const directory = join(root, table);
			const file = damagedFile(directory, table);
			// The header and the meta table are intact: the file opens, and is podtop's.
			const check = new Database(file, {readonly: true});
			expect(single(check, `SELECT value FROM meta WHERE key = 'app'`)).toBe('podtop history');
			check.close();

			let now = start + 700_000;
			const lines: string[] = [];
			const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'example', keyFingerprint: '••••abcd'});
			writes.setPods([pod('p1', 42)], now);
			history = openHistory({
				store,
				service,
				mode: 'live',
				options: {directory},
				record: true,
				log: line => lines.push(line),
				now: () => now,
				retryMs: 3_600_000,
			});
			history.flush(now);
			// The upkeep rolls the ten minutes up (into the minute table).
			await history.maintain();
			// A write a little later (the recovery runs once the failed write has returned).
			await new Promise(resolve => {
				setImmediate(resolve);
			});
			now += 5000;
			writes.setPods([pod('p1', 43)], now);
			history.flush(now);

			expect(history.status.getState()).toEqual({state: 'recording', file});
			const aside = readdirSync(directory).filter(name => /\.corrupt-[\dT-]+\.\d{3}Z$/.test(name));
			expect(aside).toHaveLength(1);
			expect(aside[0]).toMatch(/^account-[\da-f]{16}\.sqlite\.corrupt-\d{4}-\d\d-\d\dT\d{6}\.\d{3}Z$/);
			expect(lines.filter(line => line.includes('moved to'))).toEqual([`${file} was damaged: moved to ${join(directory, aside[0]!)}, a new one started`]);

			const [series] = await history.reader()!.series({kind: 'pod', keys: ['p1'], from: start, to: now});
			expect(series!.points.map(point => point.last[series!.fields.indexOf('gpu0.util')])).toEqual([42, 43]);
			const fresh = new Database(file, {readonly: true});
			expect(single(fresh, 'PRAGMA integrity_check')).toBe('ok');
			fresh.close();
		},
	);
});

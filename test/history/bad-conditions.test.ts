import {spawn, spawnSync} from 'node:child_process';
import {mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import Database from 'libsql';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import type {Engine} from '../../source/engine/create-engine.js';
import {historyFileName, openHistoryForWriting} from '../../source/history/history-file.js';
import {createMaintenance} from '../../source/history/maintenance.js';
import {createRecorder, maxPendingEvents} from '../../source/history/recorder.js';
import {createSqliteReader} from '../../source/history/sqlite-reader.js';
import {createPodtopStore} from '../../source/store/create-store.js';
import {engineFor} from '../helpers/engine.js';
import {startTestSim, type TestSim, waitFor} from '../helpers/sim-client.js';
import {runningPod} from '../helpers/running-pod.js';

const start = Date.parse('2026-11-20T03:00:00Z');
const dist = fileURLToPath(new URL('../../dist', import.meta.url));
const writerScript = fileURLToPath(new URL('../helpers/history-writer.mjs', import.meta.url));
const key = 'rpa_BADCONDITIONSKEY0123456789';

const pod = runningPod;

const single = (db: {prepare: (sql: string) => {raw: () => {get: () => unknown}}}, sql: string) => (db.prepare(sql).raw().get() as [unknown])[0];

let folder: string;
let sim: TestSim;
const engines: Engine[] = [];
beforeAll(async () => {
	folder = mkdtempSync(join(tmpdir(), 'podtop-bad-'));
	sim = await startTestSim({apiKey: key, load: true, endpointCount: 8, podCount: 12});
});

afterAll(async () => {
	await Promise.all(engines.map(async engine => engine.close()));
	await sim.close();
	rmSync(folder, {recursive: true, force: true});
});

/** An engine polling the simulator and recording into `directory`, with every notice it gives. */
async function recordingEngine(directory: string) {
	const notices: string[] = [];
	const engine = await engineFor(sim, {allVisible: true, record: true, history: {directory}, notice: line => notices.push(line)});
	engines.push(engine);
	engine.start();
	return {engine, notices};
}

describe('a recorder killed mid-write', () => {
	test('kill -9, 100 times: the file opens every time, integrity_check says ok, nothing committed is lost', async () => {
		const file = join(folder, 'killed', 'account.sqlite');
		let polls = 0;
		for (let round = 0; round < 100; round++) {
			const child = spawn(process.execPath, [writerScript, dist, file, '2000'], {stdio: ['ignore', 'pipe', 'inherit']});
			const lines: string[] = [];
			let pending = '';
			child.stdout.setEncoding('utf8');
			child.stdout.on('data', (chunk: string) => {
				pending += chunk;
				const parts = pending.split('\n');
				pending = parts.pop()!;
				lines.push(...parts);
			});
			const exited = new Promise<void>(resolve => {
				child.once('exit', () => {
					resolve();
				});
			});

			// Odd rounds wait for a first committed poll, so later ones are killed in a write to a file that
			// already has polls even when a loaded machine makes the first (cold) write slower than the delay.
			const started = round % 2 === 0 ? () => lines.includes('ready') : () => lines.some(line => line.startsWith('wrote '));
			await waitFor(() => started() || lines.some(line => line !== 'ready' && !line.startsWith('wrote')), 30_000);
			expect(lines[0]).toBe('ready');
			// Killed at a moment that falls anywhere in a poll's write (each is some ms).

			await new Promise(resolve => setTimeout(resolve, 20 + Math.random() * 120));
			child.kill('SIGKILL');

			await exited;
			const committed = lines.filter(line => line.startsWith('wrote ')).map(line => Number(line.slice(6)));
			expect(lines.filter(line => line !== 'ready' && !line.startsWith('wrote '))).toEqual([]);
			polls += committed.length;

			const {db, warnings} = openHistoryForWriting(file);
			try {
				expect(warnings).toEqual([]);
				expect(single(db, 'PRAGMA integrity_check')).toBe('ok');
				const newest = single(db, 'SELECT max(at) FROM polls') as number | null;
				if (committed.length > 0) {
					// Every poll said written is there; at most the one in flight (written, not yet said) more.
					expect(newest).toBeGreaterThanOrEqual(committed.at(-1)!);
					expect(newest! - committed.at(-1)!).toBeLessThanOrEqual(5000);
				}
			} finally {
				db.close();
			}
		}

		expect(polls).toBeGreaterThan(0);
	}, 600_000);
});

describe('a full disk', () => {
	test('recording pauses with one warning, keeps the newest events, and resumes when space returns (the file capped)', async () => {
		const file = join(folder, 'capped', 'account.sqlite');
		let now = start;
		const lines: string[] = [];
		const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'example', keyFingerprint: '••••abcd'});
		const {db} = openHistoryForWriting(file, now);
		const recorder = createRecorder({store, db, file, now: () => now, live: false, retryMs: 10_000, onState: (_, line) => lines.push(line)});
		const maintenanceErrors: unknown[] = [];
		const maintenance = createMaintenance({db, now: () => now, onError: error => maintenanceErrors.push(error)});
		const pods = (poll: number) => Array.from({length: 300}, (_, index) => pod(`p${index}`, (index + poll) % 100));
		writes.setPods(pods(0), now);
		recorder.flush(now);
		const pages = single(db, 'PRAGMA page_count') as number;
		db.exec(`PRAGMA max_page_count = ${pages}`);
		let poll = 1;
		for (; poll < 40; poll++) {
			now += 5000;
			writes.setPods(pods(poll), now);
			recorder.flush(now);
			recorder.record([{type: 'write', data: {n: poll}}]);

			await maintenance.run();
		}

		expect(recorder.state()).toMatchObject({state: 'paused', reason: 'the disk is full'});
		expect(lines).toEqual(['history paused: the disk is full; polling carries on, recording resumes on its own']);
		expect(maintenanceErrors.length).toBeLessThanOrEqual(1);
		// Many more events than are kept while it waits.
		recorder.record(Array.from({length: maxPendingEvents + 500}, (_, n) => ({type: 'write' as const, data: {extra: n}})));
		db.exec('PRAGMA max_page_count = 1073741823');
		now += 10_000;
		writes.setPods(pods(poll), now);
		recorder.flush(now);
		expect(recorder.state().state).toBe('recording');
		expect(lines.at(-1)).toBe('history recording resumed');
		const reader = createSqliteReader({db, file, ownsDatabase: false});
		const events = await reader.events(start, now, 10_000);
		const resumed = events.find(event => event.type === 'recording.resumed');
		expect(resumed?.data).toMatchObject({droppedEvents: expect.any(Number) as number});
		expect(events.filter(event => event.type === 'write')).toHaveLength(maxPendingEvents);
		expect(events.some(event => event.type === 'write' && event.data.extra === maxPendingEvents + 499)).toBe(true);
		expect(events.find(event => event.type === 'recording.paused')?.data).toEqual({reason: 'the disk is full'});
		const [series] = await reader.series({kind: 'pod', keys: ['p1'], from: start, to: now});
		expect(series?.points.at(-1)?.at).toBe(now);
		expect(single(db, 'PRAGMA integrity_check')).toBe('ok');
		recorder.stop();
		maintenance.stop();
		db.close();
	});

	// A real file system that fills up: a 3 MB tmpfs (needs the right to mount, as root in a container has).
	const mountPoint = join(tmpdir(), `podtop-full-${process.pid}`);
	mkdirSync(mountPoint, {recursive: true});
	const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', mountPoint]).status === 0;
	afterAll(() => {
		if (mounted) {
			spawnSync('umount', ['-l', mountPoint]);
		}

		rmSync(mountPoint, {recursive: true, force: true});
	});

	test.skipIf(!mounted)(
		'a file system that fills up: one warning, polling carries on, recording resumes once space is freed',
		async () => {
			const directory = join(mountPoint, 'history');
			const {engine, notices} = await recordingEngine(directory);
			await waitFor(() => engine.history.status.getState().state === 'recording', 20_000);
			// Everything else the file system holds: a filler as big as it lets it be.
			const filler = join(mountPoint, 'filler');
			const chunk = Buffer.alloc(64 * 1024, 1);
			try {
				for (;;) {
					writeFileSync(filler, chunk, {flag: 'a'});
				}
			} catch {}

			await waitFor(() => engine.history.status.getState().state === 'paused', 90_000, 200);
			const pausedAt = engine.store.getState().pods.updatedAt ?? 0;
			await waitFor(() => (engine.store.getState().pods.updatedAt ?? 0) > pausedAt, 30_000, 200);
			expect(notices.filter(line => line.includes('full'))).toEqual(['history paused: the disk is full; polling carries on, recording resumes on its own']);
			rmSync(filler);
			await waitFor(() => engine.history.status.getState().state === 'recording', 60_000, 200);
			expect(notices.at(-1)).toBe('history recording resumed');
			expect(notices.filter(line => /full|upkeep/.test(line))).toHaveLength(1);
			const reader = engine.history.reader()!;
			const events = await reader.events(0, Date.now() + 60_000);
			expect(events.map(event => event.type)).toEqual(expect.arrayContaining(['recording.paused', 'recording.resumed']));
		},
		240_000,
	);
});

describe('files and folders that cannot be used', () => {
	test('a damaged file and a foreign one are moved aside as <name>.corrupt-<time>, a new one started, said once each', async () => {
		for (const [label, content] of [
			['damaged', () => 'SQLite format 3\0'.padEnd(8192, 'x')],
			[
				'foreign',
				(file: string) => {
					const other = new Database(file);
					other.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices (total) VALUES (12.5)');
					other.close();
				},
			],
		] as const) {
			const directory = join(folder, label);
			mkdirSync(directory, {recursive: true, mode: 0o700});
			const file = join(directory, historyFileName({apiUrl: `${sim.url}/v2`, graphqlUrl: `${sim.url}/graphql`, apiKey: key}));
			const made = content(file);
			if (typeof made === 'string') {
				writeFileSync(file, made);
			}

			const {engine, notices} = await recordingEngine(directory);

			await waitFor(() => engine.history.status.getState().state === 'recording', 20_000);
			const aside = readdirSync(directory).filter(name => name.includes('.corrupt-'));
			expect(aside).toHaveLength(1);
			expect(aside[0]).toMatch(/^account-[\da-f]{16}\.sqlite\.corrupt-\d{4}-\d\d-\d\dT\d{6}\.\d{3}Z$/);
			expect(notices.filter(line => line.includes('moved to'))).toHaveLength(1);
			expect(notices.find(line => line.includes('moved to'))).toContain(label === 'damaged' ? 'was damaged' : 'is not a podtop history');

			await waitFor(async () => (await engine.history.reader()?.span())?.to, 20_000);
			const check = new Database(file, {readonly: true});
			expect(single(check, 'PRAGMA integrity_check')).toBe('ok');
			check.close();

			await engine.close();
		}
	}, 120_000);

	test('a history folder that cannot be written: one warning, podtop runs and polls without history', async () => {
		const blocker = join(folder, 'not-a-folder');
		writeFileSync(blocker, 'a file where the folder would be');
		const {engine, notices} = await recordingEngine(join(blocker, 'history'));
		await waitFor(() => engine.store.getState().pods.order.length, 20_000);
		await new Promise(resolve => setTimeout(resolve, 6000));
		expect(engine.history.reader()).toBeUndefined();
		expect(engine.history.status.getState().state).not.toBe('recording');
		expect(notices).toHaveLength(1);
		expect(notices[0]).toMatch(/history folder .*ENOTDIR.*--history-dir, or --no-history/);
		await engine.close();
	}, 60_000);
});

describe('the clock and the key', () => {
	test('the clock going back: no crash, series stay in order, what was stamped after now is set aside and recording goes on, said once', async () => {
		const file = join(folder, 'clock', 'account.sqlite');
		let now = start;
		const lines: string[] = [];
		const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'example', keyFingerprint: '••••abcd'});
		const {db} = openHistoryForWriting(file, now);
		const recorder = createRecorder({store, db, file, now: () => now, live: false, retryMs: 1000, onState: (_, line) => lines.push(line)});
		const reader = createSqliteReader({db, file, ownsDatabase: false});
		// Forward, back 2 s (carried a millisecond on), back an hour (what was after it set aside), then on again.
		for (const [step, util] of [
			[5000, 10],
			[5000, 20],
			[-2000, 30],
			[-3_600_000, 40],
			[5000, 50],
			[3_600_000 + 10_000, 60],
			[5000, 70],
		] as const) {
			now += step;
			writes.setPods([pod('p1', util)], now);
			recorder.flush(now);
		}

		const [series] = await reader.series({kind: 'pod', keys: ['p1'], from: start - 7_200_000, to: now});
		const times = series!.points.map(point => point.at);
		expect(times).toEqual([...times].sort((a, b) => a - b));
		expect(new Set(times).size).toBe(times.length);
		const utils = series!.points.map(point => point.last[series!.fields.indexOf('gpu0.util')]);
		expect(utils).toEqual([40, 50, 60, 70]);
		expect(lines).toHaveLength(1);
		expect(lines[0]).toMatch(/^history: the clock is 3602 s behind the last write; 3 polls stamped after now .* were set aside, recording goes on$/);
		expect(recorder.state().state).toBe('recording');
		recorder.stop();
		db.close();
	});

	test('the key is nowhere in the bytes of the file a real recording made (its WAL included)', async () => {
		const directory = join(folder, 'keyless');
		const {engine} = await recordingEngine(directory);
		await waitFor(async () => (await engine.history.reader()?.span())?.to, 20_000);
		await new Promise(resolve => setTimeout(resolve, 6000));
		engine.history.flush();
		const files = readdirSync(directory);
		expect(files.some(name => name.endsWith('.sqlite'))).toBe(true);
		const bytes = Buffer.concat(files.map(name => readFileSync(join(directory, name))));
		expect(bytes.length).toBeGreaterThan(10_000);
		// The pods' names are there (the recording is real); the key, in any of its forms, is not.
		expect(bytes.includes(engine.store.getState().pods.byId[engine.store.getState().pods.order[0]!]!.record.name!)).toBe(true);
		for (const form of [key, key.slice(-12), Buffer.from(key).toString('base64')]) {
			expect(bytes.includes(form)).toBe(false);
		}

		await engine.close();
	}, 60_000);
});

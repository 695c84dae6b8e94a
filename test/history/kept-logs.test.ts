import {mkdtempSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {openHistoryForReading, openHistoryForWriting} from '../../source/history/history-file.js';
import {keptLineChars, keptLinesPerWorker, keptLogsIn, keptWorkersPerEndpoint} from '../../source/history/kept-logs.js';
import {createMaintenance} from '../../source/history/maintenance.js';
import {createSqliteReader} from '../../source/history/sqlite-reader.js';
import type {LogLine} from '../../source/model/log-line.js';

const lineOf = (index: number, text = `line ${index}`): LogLine => ({
	id: `2026-12-01T12:00:00Z/${String(index).padStart(12, '0')}`,
	ts: Date.UTC(2026, 11, 1, 12) + index,
	source: 'container',
	line: text,
});

const newFile = () => join(mkdtempSync(join(tmpdir(), 'podtop-kept-')), 'account.sqlite');

describe('gone workers’ lines in the history file', () => {
	test('the last 200 lines of a worker, a 1 MB line cut and marked; the last 50 workers of an endpoint', () => {
		const file = newFile();
		const {db} = openHistoryForWriting(file);
		const kept = keptLogsIn(db, {writable: true});
		const lines = [...Array.from({length: 299}, (_, index) => lineOf(index)), lineOf(299, `\u001B[2J${'x'.repeat(1024 * 1024)}`)];
		kept.keep('ep1', 'w-crashed', lines, 1);
		const read = kept.read('ep1', 'w-crashed')!;
		expect(read.length).toBeLessThanOrEqual(keptLinesPerWorker);
		expect(read.at(-1)).toMatchObject({id: lines.at(-1)!.id, truncated: true});
		expect(read.at(-1)!.line).toHaveLength(keptLineChars);
		// The newest kept, in order.
		expect(read.map(line => line.id)).toEqual(lines.slice(-read.length).map(line => line.id));

		for (let index = 0; index < keptWorkersPerEndpoint + 5; index++) {
			kept.keep('ep1', `w${index}`, [lineOf(index)], 10 + index);
		}

		kept.keep('ep2', 'w-other', [lineOf(1)], 100);
		const workers = kept.workers('ep1');
		expect(workers).toHaveLength(keptWorkersPerEndpoint);
		expect(workers[0]).toBe('w5');
		expect(workers.at(-1)).toBe(`w${keptWorkersPerEndpoint + 4}`);
		expect(kept.read('ep1', 'w-crashed')).toBeUndefined();
		expect(kept.workers('ep2')).toEqual(['w-other']);
		db.close();
	});

	test('another process reads what was committed; a file from before the table reads as nothing kept', async () => {
		const file = newFile();
		const {db} = openHistoryForWriting(file);
		const old = createSqliteReader({db: openHistoryForReading(file)!, file});
		expect(await old.keptLines!('ep1', 'w1')).toBeUndefined();
		keptLogsIn(db, {writable: true}).keep('ep1', 'w1', [lineOf(1, 'Container killed: out of memory')], 1);
		// A reader opened after the write, as `podtop logs` is after an agent was killed.
		const reader = createSqliteReader({db: openHistoryForReading(file)!, file});
		expect((await reader.keptLines!('ep1', 'w1'))?.map(line => line.line)).toEqual(['Container killed: out of memory']);
		await reader.close();
		await old.close();
		db.close();
	});
});

test('gone workers’ lines go with the timeline’s events, past the hour tier’s retention, however few there are', async () => {
	const dayMs = 86_400_000;
	const file = newFile();
	const {db} = openHistoryForWriting(file, 0);
	const kept = keptLogsIn(db, {writable: true});
	kept.keep('ep1', 'w-old', [lineOf(1, 'Killed')], dayMs);
	kept.keep('ep1', 'w-new', [lineOf(2, 'Killed')], 40 * dayMs);
	const retention = {raw: dayMs, minute: 7 * dayMs, hour: 30 * dayMs};
	const errors: unknown[] = [];
	const onError = (error: unknown) => errors.push(error);
	await createMaintenance({db, retention, now: () => 40 * dayMs, onError}).run();
	expect(kept.workers('ep1')).toEqual(['w-new']);
	expect(kept.read('ep1', 'w-old')).toBeUndefined();
	// A file whose writer never kept a line (no table) is upkept as before.
	const other = openHistoryForWriting(newFile(), 0).db;
	await createMaintenance({db: other, retention, now: () => 40 * dayMs, onError}).run();
	expect(errors).toEqual([]);
	other.close();
	db.close();
});

import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, expect, test} from 'vitest';
import {createBillLedger} from '../../source/history/bill-ledger.js';
import {readBillTotals} from '../../source/history/bill-totals.js';
import {openHistoryForReading, openHistoryForWriting} from '../../source/history/history-file.js';

const dayMs = 86_400_000;
let folder: string | undefined;

afterEach(() => {
	if (folder) {
		rmSync(folder, {recursive: true, force: true});
	}
});

/** A history file as podtop wrote it when bills' amounts were JSON text in `bills`. */
function oldFormatFile(): string {
	folder = mkdtempSync(join(tmpdir(), 'podtop-bill-migration-'));
	const file = join(folder, 'account.sqlite');
	const {db} = openHistoryForWriting(file, 0);
	db.exec('DROP TABLE bill_rows');
	db.exec('DROP TABLE bill_buckets');
	db.exec(
		`CREATE TABLE bill_reads (route TEXT NOT NULL, size TEXT NOT NULL, start INTEGER NOT NULL, end INTEGER NOT NULL, read_at INTEGER NOT NULL, PRIMARY KEY (route, size, start)) WITHOUT ROWID`,
	);
	db.exec(
		`CREATE TABLE bills (route TEXT NOT NULL, size TEXT NOT NULL, start INTEGER NOT NULL, resource TEXT NOT NULL, total REAL NOT NULL, amounts TEXT NOT NULL, PRIMARY KEY (route, size, start, resource)) WITHOUT ROWID`,
	);
	const read = db.prepare('INSERT INTO bill_reads (route, size, start, end, read_at) VALUES (?, ?, ?, ?, ?)');
	const row = db.prepare('INSERT INTO bills (route, size, start, resource, total, amounts) VALUES (?, ?, ?, ?, ?, ?)');
	for (const day of [0, 1]) {
		read.run('account', 'day', day * dayMs, (day + 1) * dayMs, 2 * dayMs);
		read.run('pod', 'day', day * dayMs, (day + 1) * dayMs, 2 * dayMs);
		row.run('account', 'day', day * dayMs, '', 3.5, JSON.stringify({podGpu: 3, podDisk: 0.25, storageStandard: 0.25}));
		row.run('pod', 'day', day * dayMs, 'pod-a', 2.25, JSON.stringify({podGpu: 2, podDisk: 0.25}));
	}

	// What a damaged or odd row held: text that is not JSON, an amount that is not a number.
	row.run('pod', 'day', 0, 'pod-b', 1, 'not json');
	row.run('pod', 'day', dayMs, 'pod-b', 1, JSON.stringify({podGpu: '1', podCpu: 1}));
	db.close();
	return file;
}

test('a file of the old format (amounts as JSON text) reads as no bills kept until a writer opens it, which moves every row into columns, to the cent', () => {
	const file = oldFormatFile();
	const before = openHistoryForReading(file)!;
	expect(createBillLedger(before, false).read('pod', 'day', 0, 2 * dayMs)).toEqual([]);
	expect(readBillTotals(before, 0, 2 * dayMs)).toBeUndefined();
	before.close();

	const {db} = openHistoryForWriting(file, 3 * dayMs);
	const tables = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'bill%' ORDER BY name`).raw().all() as string[][]).flat();
	expect(tables).toEqual(['bill_buckets', 'bill_rows']);
	const ledger = createBillLedger(db, true);
	expect(ledger.read('pod', 'day', 0, 2 * dayMs)).toEqual([
		{
			from: 0,
			to: dayMs,
			readAt: 2 * dayMs,
			rows: [
				{resourceId: 'pod-a', total: 2.25, byCategory: {podGpu: 2, podDisk: 0.25}},
				{resourceId: 'pod-b', total: 1, byCategory: {}},
			],
		},
		{
			from: dayMs,
			to: 2 * dayMs,
			readAt: 2 * dayMs,
			rows: [
				{resourceId: 'pod-a', total: 2.25, byCategory: {podGpu: 2, podDisk: 0.25}},
				{resourceId: 'pod-b', total: 1, byCategory: {podCpu: 1}},
			],
		},
	]);
	expect(readBillTotals(db, 0, 2 * dayMs)).toEqual({
		size: 'day',
		from: 0,
		to: 2 * dayMs,
		account: {total: 7, byCategory: {podGpu: 6, podDisk: 0.5, storageStandard: 0.5}},
		kinds: ['pod'],
		resources: [
			{kind: 'pod', id: 'pod-a', total: 4.5, byCategory: {podGpu: 4, podDisk: 0.5}},
			{kind: 'pod', id: 'pod-b', total: 2, byCategory: {podCpu: 1}},
		],
	});
	db.close();

	// Opened again: nothing left to move, nothing doubled.
	const again = openHistoryForWriting(file, 4 * dayMs).db;
	expect(again.prepare(`SELECT count(*) FROM bill_rows`).raw().get()).toEqual([6]);
	again.close();
});

test('buckets an older podtop wrote to the file since (in tables of its own) replace the same buckets whole at the next opening', () => {
	const file = oldFormatFile();
	openHistoryForWriting(file, 3 * dayMs).db.close();
	// The older podtop makes its tables again (empty), asks the service again, and writes day 1 of the pods whole.
	const {db: older} = openHistoryForWriting(file, 4 * dayMs);
	older.exec(
		`CREATE TABLE bill_reads (route TEXT NOT NULL, size TEXT NOT NULL, start INTEGER NOT NULL, end INTEGER NOT NULL, read_at INTEGER NOT NULL, PRIMARY KEY (route, size, start)) WITHOUT ROWID`,
	);
	older.exec(
		`CREATE TABLE bills (route TEXT NOT NULL, size TEXT NOT NULL, start INTEGER NOT NULL, resource TEXT NOT NULL, total REAL NOT NULL, amounts TEXT NOT NULL, PRIMARY KEY (route, size, start, resource)) WITHOUT ROWID`,
	);
	older.prepare('INSERT INTO bill_reads VALUES (?, ?, ?, ?, ?)').run('pod', 'day', dayMs, 2 * dayMs, 4 * dayMs);
	older.prepare('INSERT INTO bills VALUES (?, ?, ?, ?, ?, ?)').run('pod', 'day', dayMs, 'pod-a', 5, JSON.stringify({podGpu: 5}));
	older.close();

	const {db} = openHistoryForWriting(file, 5 * dayMs);
	const bills = createBillLedger(db, true).read('pod', 'day', 0, 2 * dayMs);
	expect(bills.map(bill => [bill.from, bill.readAt, bill.rows.map(row => [row.resourceId, row.total])])).toEqual([
		[
			0,
			2 * dayMs,
			[
				['pod-a', 2.25],
				['pod-b', 1],
			],
		],
		[dayMs, 4 * dayMs, [['pod-a', 5]]],
	]);
	db.close();
});

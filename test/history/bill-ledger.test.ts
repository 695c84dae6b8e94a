import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, expect, test} from 'vitest';
import {createBillLedger, pruneBills} from '../../source/history/bill-ledger.js';
import {openHistoryForReading, openHistoryForWriting} from '../../source/history/history-file.js';

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;
let folder: string | undefined;

afterEach(() => {
	if (folder) {
		rmSync(folder, {recursive: true, force: true});
	}
});

function openFile() {
	folder = mkdtempSync(join(tmpdir(), 'podtop-ledger-'));
	return join(folder, 'account.sqlite');
}

test('a bucket written again replaces its rows: a changed amount is updated, a resource gone from it is gone, nothing is doubled', () => {
	const file = openFile();
	const {db} = openHistoryForWriting(file, 0);
	const ledger = createBillLedger(db, true);
	const row = (resourceId: string, total: number) => ({resourceId, total, byCategory: {podGpu: total}});
	ledger.store('pod', 'hour', [
		{from: 0, to: hourMs, readAt: 1000, rows: [row('a', 1), row('b', 2)]},
		{from: hourMs, to: 2 * hourMs, readAt: 1000, rows: []},
	]);
	ledger.store('pod', 'hour', [{from: 0, to: hourMs, readAt: 2000, rows: [row('a', 1.5)]}]);
	expect(ledger.read('pod', 'hour', 0, 2 * hourMs)).toEqual([
		{from: 0, to: hourMs, readAt: 2000, rows: [row('a', 1.5)]},
		{from: hourMs, to: 2 * hourMs, readAt: 1000, rows: []},
	]);
	// Another route, another size: kept apart.
	expect(ledger.read('account', 'hour', 0, 2 * hourMs)).toEqual([]);
	expect(ledger.read('pod', 'day', 0, dayMs)).toEqual([]);
	db.close();
	// Read by another process (read only): the same.
	const reading = openHistoryForReading(file)!;
	expect(createBillLedger(reading, false).read('pod', 'hour', 0, hourMs)[0]!.rows).toEqual([row('a', 1.5)]);
	reading.close();
});

test('bills past retention go: hourly ones after the minute tier’s span, daily ones after the hour tier’s', () => {
	const {db} = openHistoryForWriting(openFile(), 0);
	const ledger = createBillLedger(db, true);
	const bill = (from: number, to: number) => ({from, to, readAt: to + dayMs, rows: [{resourceId: '', total: 1, byCategory: {}}]});
	ledger.store('account', 'hour', [bill(0, hourMs), bill(40 * dayMs, 40 * dayMs + hourMs)]);
	ledger.store('account', 'day', [bill(0, dayMs), bill(40 * dayMs, 41 * dayMs)]);
	pruneBills(db, 41 * dayMs, 30 * dayMs, 365 * dayMs);
	expect(ledger.read('account', 'hour', 0, 50 * dayMs).map(kept => kept.from)).toEqual([40 * dayMs]);
	expect(ledger.read('account', 'day', 0, 50 * dayMs).map(kept => kept.from)).toEqual([0, 40 * dayMs]);
	pruneBills(db, 400 * dayMs, 30 * dayMs, 365 * dayMs);
	expect(ledger.read('account', 'day', 0, 50 * dayMs).map(kept => kept.from)).toEqual([40 * dayMs]);
	// Only the day of day 40 is left: rows and reads alike.
	expect(db.prepare('SELECT count(*) FROM bill_rows').raw().get()).toEqual([1]);
	expect(db.prepare('SELECT count(*) FROM bill_buckets').raw().get()).toEqual([1]);
	db.close();
});

import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {expect, test} from 'vitest';
import {openHistoryForReading, openHistoryForWriting} from '../../source/history/history-file.js';

test('a history file is written in WAL mode and read and written with half a megabyte of pages cached, not 2 MB', () => {
	const directory = mkdtempSync(join(tmpdir(), 'podtop-history-file-'));
	try {
		const file = join(directory, 'account.sqlite');
		const {db: writer} = openHistoryForWriting(file);
		const reader = openHistoryForReading(file)!;
		const pragma = (db: typeof writer, name: string) => (db.prepare(`PRAGMA ${name}`).raw().get() as [unknown])[0];
		expect(pragma(writer, 'journal_mode')).toBe('wal');
		expect(pragma(writer, 'cache_size')).toBe(-512);
		expect(pragma(reader, 'cache_size')).toBe(-512);
		reader.close();
		writer.close();
	} finally {
		rmSync(directory, {recursive: true, force: true});
	}
});

import {chmodSync, chownSync, lstatSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {appendAudit} from '../../source/engine/audit-log.js';
import type {AuditRecord} from '../../source/history/audit-record.js';

const entry: AuditRecord = {
	time: '2026-11-20T03:00:00.000Z',
	mode: 'demo',
	operation: 'job.cancel',
	target: {job: 'j1'},
	inputBytes: 0,
	inputSha256: undefined,
	outcome: 'ok',
	durationMs: 12,
};

const me = process.getuid!();
/** Another user: nobody (65534) when the tests run as root, else root. */
const other = me === 0 ? 65_534 : 0;

let folder: string;
beforeAll(() => {
	folder = mkdtempSync(join(tmpdir(), 'podtop-audit-'));
});

afterAll(() => {
	rmSync(folder, {recursive: true, force: true});
});

describe("the audit log refuses a file that is not the user's own, before writing a byte", () => {
	test("another user's file open to all (0666): refused with a sentence, nothing appended, its mode and owner left alone", async () => {
		const path = join(folder, 'theirs.jsonl');
		writeFileSync(path, 'their line\n');
		chmodSync(path, 0o666);
		// As root the test gives the file away; as anyone else it expects the user to be someone the file is not (injected uid).
		const uid = me === 0 ? me : other;
		if (me === 0) {
			chownSync(path, other, other);
		}

		await expect(appendAudit(path, entry, uid)).rejects.toThrow(/belongs to another user \(uid \d+\): podtop writes its audit log only into a file of its own/);
		expect(readFileSync(path, 'utf8')).toBe('their line\n');
		expect(statSync(path).mode & 0o777).toBe(0o666);
	});

	test("a planted symbolic link: refused, the file it points to untouched (even when it is the user's own)", async () => {
		const target = join(folder, 'target.jsonl');
		writeFileSync(target, 'precious\n', {mode: 0o644});
		const link = join(folder, 'link.jsonl');
		symlinkSync(target, link);
		await expect(appendAudit(link, entry)).rejects.toThrow(/is a symbolic link/);
		expect(readFileSync(target, 'utf8')).toBe('precious\n');
		expect(statSync(target).mode & 0o777).toBe(0o644);
		expect(lstatSync(link).isSymbolicLink()).toBe(true);
	});

	test('a dangling link is not followed to create a file where it points', async () => {
		const link = join(folder, 'dangling.jsonl');
		symlinkSync(join(folder, 'created-through-link.jsonl'), link);
		await expect(appendAudit(link, entry)).rejects.toThrow(/is a symbolic link/);
		expect(() => statSync(join(folder, 'created-through-link.jsonl'))).toThrow(/ENOENT/);
	});

	test("the user's own file: appended, and made private (0600) when it was not", async () => {
		const path = join(folder, 'mine.jsonl');
		writeFileSync(path, '');
		chmodSync(path, 0o644);
		await appendAudit(path, entry);
		const fresh = join(folder, 'sub', 'fresh.jsonl');
		await appendAudit(fresh, entry);
		for (const file of [path, fresh]) {
			expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({operation: 'job.cancel', outcome: 'ok'});
			expect(statSync(file).mode & 0o777).toBe(0o600);
			expect(statSync(file).uid).toBe(me);
		}
	});
});

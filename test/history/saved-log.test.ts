import {lstatSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {expect, test} from 'vitest';
import {saveLog} from '../../source/history/saved-log.js';
import type {SessionLine} from '../../source/model/log-session.js';

const line = (text: string): SessionLine => ({id: '1', ts: 0, source: 'container', line: text, origin: 'w/1', seq: 1});
const at = new Date(2026, 10, 23, 3, 12, 40).getTime();

test('a name planted as a link is never followed: the save takes the next free name, the link and its target untouched', async () => {
	const folder = mkdtempSync(join(tmpdir(), 'podtop-saved-'));
	const directory = join(folder, 'logs');
	mkdirSync(directory, {mode: 0o700});
	const target = join(folder, 'victim');
	writeFileSync(target, 'keep me');
	symlinkSync(target, join(directory, 'pod_.._x-20261123-031240.log'));
	const path = await saveLog([line('hello')], 'pod ../x', {directory, now: at});
	expect(path).toBe(join(directory, 'pod_.._x-20261123-031240-2.log'));
	expect(readFileSync(target, 'utf8')).toBe('keep me');

	expect(lstatSync(path).mode & 0o777).toBe(0o600);
	expect(readFileSync(path, 'utf8')).toBe('1970-01-01T00:00:00.000Z w/1 container hello\n');
});

test('a state folder that is a link, or open to others, is refused with why', async () => {
	const folder = mkdtempSync(join(tmpdir(), 'podtop-saved-'));
	const open = join(folder, 'open');
	mkdirSync(open, {mode: 0o755});
	await expect(saveLog([line('x')], 'pod', {directory: open, now: at})).rejects.toThrow(/other users can enter it/);
	symlinkSync(folder, join(folder, 'link'));
	await expect(saveLog([line('x')], 'pod', {directory: join(folder, 'link'), now: at})).rejects.toThrow(/symbolic link/);
});

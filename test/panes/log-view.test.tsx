import chalk from 'chalk';
import {expect, onTestFinished, test} from 'vitest';
import {colorful} from '../../source/components/services.js';
import {logView, numbered, plain} from '../helpers/log-view-fixture.js';
import {frameMatching} from '../helpers/ui-fixture.js';

test('it follows the tail; scrolling up holds the lines on screen as more arrive and old ones drop, counting those below; G follows again', async () => {
	const {fake, press, until, text} = await logView(undefined, {capacity: 120});
	await until(/Log of pod trainer/);
	fake.push(...numbered(100));
	const following = text(await until(/line 100/));
	expect(following.at(-1)).toBe('line 100');
	expect(following).toHaveLength(24);
	await until(/following/);

	await press('k');
	await press('k');
	await press('k');
	const paused = text(await until(/▼ 3 unseen lines · G to follow/));
	expect(paused.at(-1)).toBe('line 097');
	expect(paused[0]).toBe('line 074');

	// Lines arrive while paused: the same lines stay on screen, the count grows.
	fake.push(...numbered(10, 101));
	expect(text(await until(/▼ 13 unseen lines/))).toEqual(paused);
	// The buffer (120 lines) drops its oldest: the view is anchored on the lines' seq, not their place.
	fake.push(...numbered(15, 111));
	const dropped = await until(/▼ 28 unseen lines/);
	expect(dropped).toContain('buffer 120/120 lines · 5 dropped');
	expect(text(dropped)).toEqual(paused);

	await press('G');
	const followed = text(await until(/following/));
	expect(followed.at(-1)).toBe('line 125');
});

test('scrolling back down to the last line follows again; g goes to the first line buffered', async () => {
	const {fake, press, until, text} = await logView();
	fake.push(...numbered(60));
	await until(/line 060/);
	await press('k');
	await until(/▼ 1 unseen line ·/);
	await press('j');
	await until(/following/);
	await press('g');
	const top = text(await until(/▼ 36 unseen lines/));
	expect(top[0]).toBe('line 001');
	expect(top.at(-1)).toBe('line 024');
	// More lines: the top stays on screen.
	fake.push(...numbered(5, 61));
	expect(text(await until(/▼ 41 unseen lines/))[0]).toBe('line 001');
});

test("each stream's state is shown: live, reconnecting with when and why, ended, gone, failed", async () => {
	const {fake, until} = await logView();
	await until(/^live · source both · buffer 0\/5,000 lines/m);
	fake.setStream('p1', 'reconnecting', {retryAt: Date.now() + 5000, reason: 'no bytes for 30s'});
	await until(/reconnecting in \d+s \(no bytes for 30s\)/);
	fake.setStream('p1', 'ended');
	await until(/^ended · source both/m);
	fake.setStream('p1', 'gone', {reason: 'the pod is gone (404)'});
	await until(/^gone \(the pod is gone \(404\)\)/m);
	fake.setStream('p1', 'failed', {reason: '\u001B[31mboom'});
	const failed = await until(/^failed/m);
	expect(failed).toContain('failed (␛[31mboom)');
});

test('a merged view prefixes each line with its worker, in a colour of its own that stays; the state counts streams by state', async () => {
	const subject = {kind: 'endpoint', endpointId: 'ep1'} as const;
	const {level} = chalk;
	chalk.level = 1;
	onTestFinished(() => {
		chalk.level = level;
	});
	const {fake, until, text, lastFrame} = await logView(subject, {colors: colorful});
	fake.setStream('worker-1', 'live');
	fake.setStream('abcdefgh12345', 'reconnecting', {retryAt: Date.now() + 3000});
	fake.setStream('zyxwvuts98765', 'gone');
	fake.push({line: 'model loaded', origin: 'abcdefgh12345'}, {line: 'ready', origin: 'zyxwvuts98765'}, {line: 'serving', origin: 'abcdefgh12345'});
	const frame = await until(/serving/);
	expect(frame).toMatch(/3 workers: 1 live · 1 reconnecting · 1 gone · abcdefgh reconnecting in \d+s · zyxwvuts gone/);
	expect(text(frame)).toEqual(['abcdefgh model loaded', 'zyxwvuts ready', 'abcdefgh serving']);
	// Each worker's prefix in its colour: the same for both of its lines, another for the other worker.
	const colourOf = (id: string) =>
		(lastFrame() ?? '')
			.split('\n')
			.filter(line => plain(line).startsWith(id))
			.map(line => /\u001B\[([39]\d)m/.exec(line)?.[1]);
	const first = colourOf('abcdefgh');
	expect(first).toHaveLength(2);
	expect(first[0]).toBeDefined();
	expect(first[1]).toBe(first[0]);
	expect(colourOf('zyxwvuts')[0]).not.toBe(first[0]);
});

test('hostile lines are inert: escape sequences, C1 controls, NUL, bidirectional overrides and newlines are shown, never sent', async () => {
	const {fake, until, lastFrame, text} = await logView();
	fake.push(
		'\u001B[2J\u001B]0;owned\u0007title',
		'nul\u0000byte',
		'\u009B31mcsi',
		'a\u202Eevil',
		'two\nlines\rcr',
		{line: 'not json', raw: true},
		{line: 'x'.repeat(20), truncated: true},
	);
	await until(/xxxx/);
	const raw = lastFrame() ?? '';
	expect(raw).not.toContain('\u001B[2J');
	expect(raw).not.toContain('\u001B]0;');
	expect(raw).not.toContain('\u0007');
	expect(raw).not.toContain('\u0000');
	expect(raw).not.toContain('\u009B');
	expect(raw).not.toContain('\u202E');
	expect(text()).toEqual([
		'␛[2J␛]0;owned^Gtitle',
		'nul^@byte',
		String.raw`\u009b31mcsi`,
		String.raw`a\u202eevil`,
		'two⏎linescr',
		'[raw] not json',
		`${'x'.repeat(20)} [cut]`,
	]);
});

test('at 80×24 everything fits, and a resize lays the lines out again at the new width', async () => {
	const subject = {kind: 'endpoint', endpointId: 'ep1'} as const;
	const {fake, until, frame, text, view} = await logView(subject, {columns: 80, rows: 24});
	fake.push(...Array.from({length: 40}, (_, index) => ({line: `${'word '.repeat(30)}end ${index}`, origin: `worker${index % 3}xyz`})));
	const shown = await until(/end 39/);
	const lines = shown.split('\n');
	expect(lines.length).toBeLessThanOrEqual(23);
	for (const line of lines) {
		expect([...line].length).toBeLessThanOrEqual(80);
	}

	// A line of 156 characters after a prefix of 9: rows of 71 at 80 columns (those after the first indented under its text), of 51 at 60.
	const last = `${'word '.repeat(30)}end 39`;
	const rowsAt = (room: number) =>
		Array.from({length: Math.ceil(last.length / room)}, (_, index) =>
			`${index === 0 ? 'worker0x ' : ' '.repeat(9)}${last.slice(index * room, (index + 1) * room)}`.trimEnd(),
		);
	expect(text().slice(-3)).toEqual(rowsAt(71));
	view.dispatch({type: 'resize', columns: 60, rows: 24});
	await frameMatching(() => frame(), /^ {10}39$/m);
	expect(
		frame()
			.split('\n')
			.every(line => [...line].length <= 60),
	).toBe(true);
	expect(text().slice(-4)).toEqual(rowsAt(51));
});

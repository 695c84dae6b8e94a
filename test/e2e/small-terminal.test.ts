import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, test} from 'vitest';
import {hasTmux, TmuxSession} from '../helpers/tmux.js';

let session: TmuxSession | undefined;
let folder: string | undefined;
afterEach(() => {
	session?.close();
	session = undefined;
	if (folder) {
		rmSync(folder, {recursive: true, force: true});
		folder = undefined;
	}
});

const openJupyter = async (tmux: TmuxSession) => {
	await tmux.waitFor(/Endpoints \(9\)/, 60_000);
	tmux.send('2');
	await tmux.waitFor(/Pods \(12\)[\s\S]*jupyter-research/, 30_000);
	tmux.send('/');
	tmux.type('jupyter');
	tmux.send('Enter');
	await tmux.waitFor(/Pods \(1\/12\) \/jupyter/);
	tmux.send('Enter');
};

/** The demo in an 80×24 terminal: what the smallest supported screen shows. */
describe.runIf(hasTmux)('an 80×24 terminal', () => {
	test('pod details (jupyter-research, 2 ports) keep their title line, and the env line and the ports sit below the charts, nothing drawn over', async () => {
		session = new TmuxSession(80, 24, ['--demo-past', '1h']);
		await openJupyter(session);
		// The charts read the recorded hour first (`reading 1h of history…`, longer while the demo's past is still simulated): wait for their time axis.
		const screen = await session.waitFor(/\d\d:\d\d.*\nenv {7}JUPYTER_PASSWORD=•{4}[\s\S]*22 → \d+ +tcp/m, 60_000);
		const lines = screen.split('\n');
		expect(lines[2], screen).toMatch(/^jupyter-research \(\w+\) RUNNING {2}Esc back/);
		const env = lines.findIndex(line => line.startsWith('env '));
		expect(lines[env], screen).toMatch(/^env {7}JUPYTER_PASSWORD=•{4} {2}PUBLIC_KEY=•{4} {2}\(v shows the values\) *$/);
		expect(lines.slice(env + 1).join('\n'), screen).toMatch(/^ports +PORT +TYPE +PUBLIC +IP\n {10}8888 → 8888 +http +no .*\n {10}22 → \d+ +tcp +yes /m);
		// The charts end with their time axis, above the env line.
		expect(lines[env - 1], screen).toMatch(/\d\d:\d\d/);
		expect(lines.every(line => line.length <= 80)).toBe(true);
	}, 120_000);

	test('--ascii: every byte sent to the terminal while going through the panes, details and help is ASCII (escape sequences aside)', async () => {
		folder = mkdtempSync(path.join(tmpdir(), 'podtop-ascii-'));
		const file = path.join(folder, 'terminal.raw');
		session = new TmuxSession(80, 24, ['--demo-past', '1h', '--ascii']);
		session.recordTo(file);
		await openJupyter(session);
		await session.waitFor(/^jupyter-research \(\w+\) RUNNING/m, 30_000);
		session.send('?');
		await session.waitFor(/Keys: Pod details[\s\S]*\+-+\+/, 30_000);
		// Ink holds a lone Esc 20 ms to see whether a sequence follows: the next key waits for the help to close.
		session.send('Escape');
		await session.waitFor(/^jupyter-research \(\w+\) RUNNING/m, 30_000);
		session.send('3');
		await session.waitFor(/GPUs \(20\)[\s\S]*stock \+{3} High/);
		session.send('1');
		await session.waitFor(/Endpoints \(9\)/);
		// No escape sequences: what is left is text, which must be ASCII.
		const sent = readFileSync(file, 'latin1').replaceAll(/\u001B(?:\[[\d;?<=>]*[ -/]*[@-~]|][^\u0007\u001B]*(?:\u0007|\u001B\\)|[()][\dA-Z]|[^[\]()])/g, '');
		const outside = [...sent].filter(character => character.codePointAt(0)! > 0x7e);
		expect(sent.length).toBeGreaterThan(1000);
		expect(outside.length, [...new Set(outside)].join(' ')).toBe(0);
	}, 120_000);
});

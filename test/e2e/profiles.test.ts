import {mkdirSync, mkdtempSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, test} from 'vitest';
import {hasTmux, TmuxSession, wholeEndpointsHelp} from '../helpers/tmux.js';

let session: TmuxSession | undefined;
afterEach(() => {
	session?.close();
	session = undefined;
});

const xdg = mkdtempSync(path.join(tmpdir(), 'podtop-xdg-'));
mkdirSync(path.join(xdg, 'podtop'));
writeFileSync(path.join(xdg, 'podtop', 'config.toml'), '[profile.prod]\nread-only = true\ncolor = "red"\n');

/** The real program in a real terminal, on the built-in simulator, with a profile from ~/.config/podtop/config.toml. */
describe.runIf(hasTmux)('a profile in the dashboard', () => {
	test('a read-only profile opens read-only, and the header names it; --write opens it writable, still named', async () => {
		session = new TmuxSession(120, 40, ['--demo', '--demo-past', '1h', '--profile', 'prod'], {XDG_CONFIG_HOME: xdg});
		let screen = await session.waitFor(/Endpoints \(9\)/, 60_000);
		expect(screen).toMatch(/^podtop +DEMO {2}READ-ONLY {2}prod +/m);
		session.send('?');
		screen = await session.waitFor(wholeEndpointsHelp);
		expect(screen).not.toMatch(/\(write\)|\(destructive\)/);
		session.send('q');
		// No ~/.runpod/config.toml: no account to switch to, and it says what is needed.
		session.type(':profile lab');
		session.send('Enter');
		await session.waitFor(/profiles need ~\/\.runpod\/config\.toml: a \[NAME] section with its api_key for each account/);
		session.send('q');
		await session.waitFor(/PODTOP-EXIT 0/);
		session.close();
		session = new TmuxSession(120, 40, ['--demo', '--demo-past', '1h', '--profile', 'prod', '--write'], {XDG_CONFIG_HOME: xdg});
		screen = await session.waitFor(/Endpoints \(9\)/, 60_000);
		expect(screen).toMatch(/^podtop +DEMO {2}prod +/m);
		session.send('q');
		await session.waitFor(/PODTOP-EXIT 0/);
	}, 120_000);
});

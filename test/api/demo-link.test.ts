import {chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, describe, expect, test} from 'vitest';
import {demoSocketPath, findDemoLink} from '../../source/api/demo-link.js';
import {hostDemo} from '../../source/serve/demo-host.js';

const base = mkdtempSync(path.join(tmpdir(), 'podtop-demo-link-'));
afterAll(() => {
	rmSync(base, {recursive: true, force: true});
});

const link = {url: 'http://127.0.0.1:45678', apiKey: `rpa_SIM${'0123456789ABCDEF'.repeat(2)}0123`};

describe('the demo simulator a podtop of this user keeps running', () => {
	test('is found on its socket in the state folder (0700, the socket 0600) while it is hosted, and not after', async () => {
		const socketPath = demoSocketPath({XDG_STATE_HOME: path.join(base, 'state')});
		expect(socketPath).toBe(path.join(base, 'state', 'podtop', 'demo', 'simulator.sock'));
		const host = await hostDemo(link, socketPath);
		expect(host).toBeDefined();
		try {
			expect(await findDemoLink(socketPath)).toEqual(link);
			// One host at a time: a second is refused, the first stays the one found.
			expect(await hostDemo({...link, url: 'http://127.0.0.1:1'}, socketPath)).toBeUndefined();
			expect(await findDemoLink(socketPath)).toEqual(link);
		} finally {
			await host?.close();
		}

		expect(await findDemoLink(socketPath)).toBeUndefined();
	});

	test('is not trusted through a link, or where another user could reach the folder or the socket', async () => {
		const real = path.join(base, 'real', 'demo', 'simulator.sock');
		const host = await hostDemo(link, real);
		expect(host).toBeDefined();
		try {
			// A folder linked to the real one: no link is followed.
			mkdirSync(path.join(base, 'planted'), {mode: 0o700});
			symlinkSync(path.dirname(real), path.join(base, 'planted', 'demo'));
			expect(await findDemoLink(path.join(base, 'planted', 'demo', 'simulator.sock'))).toBeUndefined();
			// A socket linked to the real one.
			mkdirSync(path.join(base, 'linked', 'demo'), {recursive: true, mode: 0o700});
			symlinkSync(real, path.join(base, 'linked', 'demo', 'simulator.sock'));
			expect(await findDemoLink(path.join(base, 'linked', 'demo', 'simulator.sock'))).toBeUndefined();
			// The socket open to others.
			chmodSync(real, 0o666);
			expect(await findDemoLink(real)).toBeUndefined();
			chmodSync(real, 0o600);
			// The folder open to others.
			chmodSync(path.dirname(real), 0o755);
			expect(await findDemoLink(real)).toBeUndefined();
			chmodSync(path.dirname(real), 0o700);
			expect(await findDemoLink(real)).toEqual(link);
		} finally {
			await host?.close();
		}
	});

	test('a folder that was there with another mode is used as it is: nothing hosted, its mode unchanged', async () => {
		const folder = path.join(base, 'open', 'demo');
		mkdirSync(folder, {recursive: true, mode: 0o755});
		chmodSync(folder, 0o755);
		expect(await hostDemo(link, path.join(folder, 'simulator.sock'))).toBeUndefined();
		expect(statSync(folder).mode & 0o777).toBe(0o755);
	});
});

import {spawnSync} from 'node:child_process';
import {existsSync} from 'node:fs';
import path from 'node:path';
import {expect, test} from 'vitest';
import {cliEnv, cliPath} from '../helpers/run-cli.js';

/** A Node older than 22 on this machine (the system's, say, where npm brings 24 for the checkout), if there is one. */
function olderNode(): string | undefined {
	const candidates = [...(process.env.PATH ?? '').split(path.delimiter).map(folder => path.join(folder, 'node')), '/usr/bin/node', '/usr/local/bin/node'];
	for (const candidate of candidates) {
		if (!existsSync(candidate)) {
			continue;
		}

		const version = spawnSync(candidate, ['-p', 'process.versions.node'], {encoding: 'utf8'}).stdout.trim();
		if (Number(version.split('.')[0]) < 22) {
			return candidate;
		}
	}

	return undefined;
}

const old = olderNode();

test('the tests run on Node 22 or newer (npm puts the checkout’s Node 24 first on PATH)', () => {
	expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(22);
});

test.skipIf(old === undefined)('on a Node older than 22 the bin says which Node it needs in one line and exits 2, with no stack trace', () => {
	for (const args of [['--version'], ['snapshot', '--demo'], []]) {
		const result = spawnSync(old!, [cliPath, ...args], {encoding: 'utf8', env: cliEnv(), timeout: 20_000});
		expect(result.status, args.join(' ')).toBe(2);
		expect(result.stdout).toBe('');
		expect(result.stderr).toMatch(/^podtop needs Node\.js 22 or newer \(24 LTS recommended\); this is Node\.js \d+\.\d+\.\d+, [^\n]+\n$/);
	}
});

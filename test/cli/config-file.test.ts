import {mkdirSync, mkdtempSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {expect, test} from 'vitest';
import {cliEnv, runCli} from '../helpers/run-cli.js';

test('a malformed ~/.runpod/config.toml stops podtop with exit 2 and where it breaks, instead of a silent DEMO', async () => {
	const home = mkdtempSync(path.join(tmpdir(), 'podtop-home-'));
	mkdirSync(path.join(home, '.runpod'));
	writeFileSync(path.join(home, '.runpod', 'config.toml'), '[default]\napi_key = rpa_NOTQUOTEDSECRET\n', {mode: 0o600});
	const {code, stderr, stdout} = await runCli(['snapshot'], cliEnv({HOME: home}));
	expect(code).toBe(2);
	expect(stderr).toMatch(/config\.toml does not parse at line 2, column \d+: .+ Fix it, or set RUNPOD_API_KEY \(it overrides the file\)\./);
	expect(stderr + stdout).not.toContain('NOTQUOTEDSECRET');
});

import {mkdirSync, mkdtempSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {cliEnv, runCli} from '../helpers/run-cli.js';
import {startTestSim, waitForStatus, type TestSim} from '../helpers/sim-client.js';

let sim: TestSim;
const key = 'rpa_PROFILESECRET000011112222333';
const home = mkdtempSync(path.join(tmpdir(), 'podtop-home-'));
const xdg = path.join(home, '.config');
const state = mkdtempSync(path.join(tmpdir(), 'podtop-state-'));

beforeAll(async () => {
	mkdirSync(path.join(xdg, 'podtop'), {recursive: true});
	writeFileSync(path.join(xdg, 'podtop', 'config.toml'), '[profile.prod]\nread-only = true\ncolor = "red"\n\n[profile.lab]\ncolor = "green"\n');
	mkdirSync(path.join(home, '.runpod'));
	writeFileSync(path.join(home, '.runpod', 'config.toml'), `[prod]\napi_key = "${key}"\n\n[lab]\napi_key = "${key}"\n`, {mode: 0o600});
	sim = await startTestSim({apiKey: key, endpoints: [{id: 'echo', workersMin: 1, workersMax: 1, flashBoot: true}]});
});

afterAll(async () => sim.close());

// The key comes from the profile's section of ~/.runpod/config.toml, as a user's would.
const env = (extra: Record<string, string> = {}) => cliEnv({HOME: home, XDG_CONFIG_HOME: xdg, XDG_STATE_HOME: state, ...extra});
const urls = () => ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`];
const requests = async (operation: string) => ((await sim.call('GET', '/__sim/stats')).body.endpoints.echo?.[operation]?.requests as number | undefined) ?? 0;

describe('a profile marked read-only in ~/.config/podtop/config.toml, over real HTTP', () => {
	test('the write verbs exit 6 naming the profile and --write, and nothing is sent', async () => {
		const id = await sim.run('echo', {delay_ms: 60_000});
		const cancels = await requests('cancel');
		const purges = await requests('purge-queue');
		const cancel = await runCli(['cancel', 'echo', id, '--profile', 'prod', ...urls()], env());
		expect(cancel.code).toBe(6);
		expect(cancel.stderr).toBe(`podtop: read-only mode (profile "prod" is read-only; add --write to write): did not cancel job ${id} on echo\n`);
		const purge = await runCli(['purge', 'echo', '--yes', '--json', '--profile', 'prod', ...urls()], env());
		expect(purge.code).toBe(6);
		expect(JSON.parse(purge.stdout)).toMatchObject({
			outcome: 'read-only',
			error: expect.stringContaining('profile "prod" is read-only; add --write') as unknown,
		});
		const scale = await runCli(['endpoint', 'scale', 'echo', '--min', '0', '--max', '2', '--profile', 'prod', ...urls()], env());
		expect(scale.code).toBe(6);
		expect(scale.stderr).toContain('profile "prod" is read-only');
		expect(await requests('cancel')).toBe(cancels);
		expect(await requests('purge-queue')).toBe(purges);
		expect(cancel.stderr + purge.stdout + scale.stderr).not.toContain(key);
	});

	test('--write sends it; a profile not marked read-only writes as before', async () => {
		const id = await sim.run('echo', {delay_ms: 60_000});
		const cancels = await requests('cancel');
		const written = await runCli(['cancel', 'echo', id, '--profile', 'prod', '--write', ...urls()], env());
		expect(written.stderr).toBe('');
		expect(written.code).toBe(0);
		await waitForStatus(sim, 'echo', id, 'CANCELLED');
		expect(await requests('cancel')).toBe(cancels + 1);
		const other = await sim.run('echo', {delay_ms: 60_000});
		const lab = await runCli(['cancel', 'echo', other, '--profile', 'lab', ...urls()], env());
		expect(lab.code).toBe(0);
		expect(await requests('cancel')).toBe(cancels + 2);
	});

	test('an unknown key in the file is exit 2 with a sentence naming it and the file, before anything is sent', async () => {
		const broken = mkdtempSync(path.join(tmpdir(), 'podtop-xdg-'));
		mkdirSync(path.join(broken, 'podtop'));
		writeFileSync(path.join(broken, 'podtop', 'config.toml'), '[profile.prod]\nreadonly = true\n');
		const cancels = await requests('cancel');
		const result = await runCli(['cancel', 'echo', 'some-job', '--profile', 'prod', ...urls()], env({XDG_CONFIG_HOME: broken}));
		expect(result.code).toBe(2);
		expect(result.stderr).toBe(
			`podtop: ${path.join(broken, 'podtop', 'config.toml')} [profile.prod]: unknown key "readonly"; the keys are read-only, color, budget, v2-budget, bell, ascii, agent (see the readme's Profiles)\n`,
		);
		expect(await requests('cancel')).toBe(cancels);
	});

	test('doctor still runs with a file that cannot be used, and says what is wrong with it (exit 1, not 2)', async () => {
		const broken = mkdtempSync(path.join(tmpdir(), 'podtop-xdg-'));
		mkdirSync(path.join(broken, 'podtop'));
		const file = path.join(broken, 'podtop', 'config.toml');
		writeFileSync(file, 'colour = false\n');
		const doctor = async () => {
			const result = await runCli(['doctor', '--json', ...urls()], env({XDG_CONFIG_HOME: broken}), 30_000);
			const {checks} = JSON.parse(result.stdout) as {checks: Array<{id: string; status: string; found: string}>};
			return {code: result.code, check: checks.find(check => check.id === 'podtop-config')};
		};

		let {code, check} = await doctor();
		expect(code).toBe(1);
		expect(check).toMatchObject({
			status: 'fail',
			found: `${file}: unknown key "colour"; the keys are bell, ascii, color, budget, v2-budget, agent, profile, images (see the readme's Profiles)`,
		});
		writeFileSync(file, '[profile.prod]\nread-only = true\ncolor = "red"\n');
		({check} = await doctor());
		expect(check).toMatchObject({status: 'ok'});
	}, 60_000);
});

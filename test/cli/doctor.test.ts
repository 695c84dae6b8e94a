import {spawn} from 'node:child_process';
import {chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {simStats} from '../helpers/engine.js';
import {cliEnv, cliPath, collect, runCli} from '../helpers/run-cli.js';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';

const key = 'rpa_DOCTORSECRET00001111222233334444';
const home = mkdtempSync(join(tmpdir(), 'podtop-doctor-home-'));
const state = mkdtempSync(join(tmpdir(), 'podtop-doctor-state-'));
const runtime = mkdtempSync(join(tmpdir(), 'podtop-doctor-run-'));
let sim: TestSim;

type Check = {id: string; title: string; status: 'ok' | 'warn' | 'fail' | 'skip'; found: string; fix?: string; figures?: Record<string, unknown>};
type Report = {ok: boolean; checks: Check[]};

const env = (extra: Record<string, string | undefined> = {}) =>
	cliEnv({HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_STATE_HOME: state, XDG_RUNTIME_DIR: runtime, RUNPOD_API_KEY: key, ...extra});
const urls = () => ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`];

async function doctor(args: readonly string[] = [], extra: Record<string, string | undefined> = {}) {
	const result = await runCli(['doctor', ...args, ...urls()], env(extra), 30_000);
	// The key is never printed, whatever was found.
	expect(`${result.stdout}${result.stderr}`).not.toContain(key);
	return result;
}

async function report(
	args: readonly string[] = [],
	extra: Record<string, string | undefined> = {},
): Promise<{code: number | null; report: Report; check: (id: string) => Check}> {
	const result = await doctor(['--json', ...args], extra);
	const parsed = JSON.parse(result.stdout) as Report;
	return {code: result.code, report: parsed, check: id => parsed.checks.find(check => check.id === id)!};
}

beforeAll(async () => {
	// Every test here runs doctor several times: GraphQL's limit is raised so none of its reads is a 429.
	sim = await startTestSim({apiKey: key, graphqlRate: 100, endpoints: [{id: 'echo', name: 'echo', workersMin: 0, workersMax: 1}]});
});

afterAll(async () => {
	await sim.close();
	for (const folder of [home, state, runtime]) {
		rmSync(folder, {recursive: true, force: true});
	}
});

describe('podtop doctor against a simulator', () => {
	test('all in order: each API read three times with the key accepted, the clock, no 429, a line per check and exit 0', async () => {
		const before = await simStats(sim);
		const {code, report: document, check} = await report();
		expect(code).toBe(0);
		expect(document.ok).toBe(true);
		expect(check('node')).toMatchObject({status: 'ok', found: `v${process.versions.node}`});
		expect(check('key')).toMatchObject({status: 'ok', found: `from RUNPOD_API_KEY (${key.length} characters)`});
		expect(check('rest-v2')).toMatchObject({status: 'ok', figures: {reads: 3}});
		// The budget the service states for the key's owner, as its last answer left it.
		expect(check('rest-v2').found).toMatch(/^127\.0\.0\.1:\d+: 3 reads, p50 \d+ ms, key accepted; left: minute \d+\/60 · hour [\d,]+\/3,000 · day \d+k\/50k$/);
		expect(check('graphql')).toMatchObject({status: 'ok', figures: {reads: 3}});
		expect(check('graphql').found).toMatch(/^127\.0\.0\.1:\d+: 3 reads, p50 \d+ ms, key accepted$/);
		expect(check('job-api')).toMatchObject({status: 'ok', figures: {reads: 3}});
		expect(check('clock')).toMatchObject({status: 'ok', found: 'this host is within a second of the service'});
		expect(check('rate-limits')).toMatchObject({status: 'ok', found: 'none in these 9 reads'});
		expect(check('agent').status).toBe('skip');
		expect(check('alerts')).toMatchObject({status: 'skip'});
		// Real reads, and reads only: three /health of echo, nothing written.
		const after = await simStats(sim);
		expect((after.echo?.health?.requests ?? 0) - (before.echo?.health?.requests ?? 0)).toBe(3);
		expect(Object.keys(after.echo ?? {}).filter(operation => !['health', 'group:status'].includes(operation))).toEqual([]);

		const text = await doctor();
		expect(text.stdout).toMatch(/^✓ Node\.js +v2[2-9]\./m);
		expect(text.stdout).toMatch(/^✓ GraphQL API +127\.0\.0\.1:\d+: 3 reads, p50 \d+ ms, key accepted$/m);
		expect(text.stdout).toMatch(/^– agent +none serves this account/m);
		expect(text.stdout.trimEnd().split('\n').at(-1)).toMatch(/^(Everything podtop depends on is in order\.|Nothing stops podtop; \d+ worth a look\.)$/);
		const ascii = await doctor(['--ascii']);
		expect(ascii.stdout).toMatch(/^\+ Node\.js/m);
		expect(ascii.stdout).not.toMatch(/[✓✗–→]/);
	});

	test('a key the service refuses: both APIs fail with what to do, exit 1', async () => {
		const {code, report: document, check} = await report([], {RUNPOD_API_KEY: 'rpa_WRONGKEY000011112222'});
		expect(code).toBe(1);
		expect(document.ok).toBe(false);
		expect(check('rest-v2')).toMatchObject({status: 'fail', found: expect.stringMatching(/refused the API key \(HTTP 401\)/)});
		expect(check('graphql')).toMatchObject({
			status: 'fail',
			found: expect.stringMatching(/refused the API key \(HTTP 401\)/),
			fix: expect.stringContaining('API Keys'),
		});
		expect(check('job-api').status).not.toBe('ok');
	});

	test('a service that cannot be reached: a network failure said per API, exit 1', async () => {
		const result = await runCli(['doctor', '--json', '--api-url', 'http://127.0.0.1:9/v2', '--graphql-url', 'http://127.0.0.1:9/graphql'], env(), 30_000);
		expect(result.code).toBe(1);
		const {checks} = JSON.parse(result.stdout) as Report;
		expect(checks.find(check => check.id === 'graphql')).toMatchObject({status: 'fail', found: expect.stringMatching(/^127\.0\.0\.1:9: .*ECONNREFUSED/)});
	});

	test('GraphQL retired: said as such, not as a failure, while REST v2 answers; the job API still found through v2', async () => {
		const retired = await startTestSim({apiKey: key, graphql: 'retired', endpoints: [{id: 'echo', name: 'echo', workersMin: 0, workersMax: 1}]});
		try {
			const result = await runCli(['doctor', '--json', '--api-url', `${retired.url}/v2`, '--graphql-url', `${retired.url}/graphql`], env(), 30_000);
			const {checks} = JSON.parse(result.stdout) as Report;
			const check = (id: string) => checks.find(candidate => candidate.id === id)!;
			expect(check('graphql')).toMatchObject({status: 'ok', found: expect.stringMatching(/retired \(410 Gone\); podtop manages over REST v2/)});
			expect(check('rest-v2').status).toBe('ok');
			expect(check('job-api')).toMatchObject({status: 'ok', figures: {reads: 3}});
			expect(result.code).toBe(0);
		} finally {
			await retired.close();
		}
	});

	test('config files: one that does not parse says where; a key file others can read is a failure; a broken alert rule too', async () => {
		const runpod = join(home, '.runpod');
		mkdirSync(runpod, {recursive: true});
		const config = join(runpod, 'config.toml');
		writeFileSync(config, `[default]\napi_key = "${key}"\n`);
		chmodSync(config, 0o644);
		let {code, check} = await report([], {RUNPOD_API_KEY: undefined});
		expect(code).toBe(1);
		expect(check('runpod-config')).toMatchObject({status: 'fail', fix: `chmod 600 ${config}`});
		expect(check('key')).toMatchObject({status: 'ok', found: `from ${config} [default] (${key.length} characters)`});
		chmodSync(config, 0o600);
		({code, check} = await report([], {RUNPOD_API_KEY: undefined}));
		expect(check('runpod-config')).toMatchObject({status: 'ok'});
		expect(check('graphql').status).toBe('ok');

		writeFileSync(config, '[default\napi_key = 1\n');
		({code, check} = await report([], {RUNPOD_API_KEY: undefined}));
		expect(code).toBe(1);
		expect(check('runpod-config').found).toMatch(/does not parse at line 1, column \d+/);
		expect(check('key').status).toBe('fail');
		rmSync(config);

		const alerts = join(home, 'alerts.toml');
		writeFileSync(alerts, '[[rule]]\nname = "queue"\nkind = "nonsense"\n');
		({code, check} = await report(['--alerts', alerts]));
		expect(code).toBe(1);
		expect(check('alerts').status).toBe('fail');
		writeFileSync(alerts, '[[rule]]\nname = "queue"\nkind = "queue"\nendpoint = "*"\nover = 10\nfor = "1m"\n');
		({check} = await report(['--alerts', alerts]));
		expect(check('alerts')).toMatchObject({status: 'ok', found: `${alerts}: 1 rule`});
		expect(check('probes')).toMatchObject({status: 'skip', found: 'none configured: probes are off ([[probe]] in the alert rules sends them)'});
	});

	test('probes: what the configured ones cost a day, in jobs per endpoint matched and, for a public image model, in dollars', async () => {
		const alerts = join(home, 'probes.toml');
		writeFileSync(
			alerts,
			[
				'[[probe]]\nendpoint = "ech*"\nevery = "5m"\ninput = {delay_ms = 10}',
				'[[probe]]\nname = "images"\nendpoint = "black-forest-labs-flux-1-schnell"\nevery = "10m"\ninput = {prompt = "a dot", width = 1024, height = 1024}',
				'[[probe]]\nendpoint = "llama-*"\nevery = "1h"\ninput = {prompt = "ping"}',
			].join('\n\n'),
		);
		const {check} = await report(['--alerts', alerts]);
		// 288 + 144 + 0 jobs; 144 images of 1024×1024 at $0.0024/MP: 144 × $0.0025165824 = $0.36.
		expect(check('probes')).toMatchObject({status: 'ok', figures: {rules: 3, jobsPerDay: 432, dollarsPerDay: 0.3624}});
		expect(check('probes').found).toBe(
			'432 jobs a day in all ($0.36 of them images); probe ech*: every 5m00s, 288 jobs a day × 1 endpoint (echo); ' +
				'images: every 10m00s, 144 jobs a day × 1 endpoint (black-forest-labs-flux-1-schnell), $0.36 a day; ' +
				'probe llama-*: every 1h00m, 24 jobs a day per endpoint, matching none now. ' +
				'Each probe is a job, billed as one (run by the agent, or a dashboard or watch polling alone)',
		);
	});

	test('with an agent serving the account: found, attached, the same version, its 429s and the history it records', async () => {
		const agent = spawn(process.execPath, [cliPath, 'agent', ...urls()], {env: env()});
		const ended = collect(agent, 120_000);
		let log = '';
		agent.stderr.on('data', (text: Buffer | string) => {
			log += String(text);
		});
		try {
			await waitFor(() => log.includes('recording history'), 20_000);
			const {check} = await waitFor(async () => {
				const answer = await report();
				return answer.check('history').status === 'ok' ? answer : undefined;
			}, 20_000);
			expect(check('agent')).toMatchObject({status: 'ok', figures: {sameVersion: true, rateLimitedLastHour: 0}});
			expect(check('agent').found).toMatch(/\(yours\), attached, same version \d+\.\d+\.\d+, records history, no 429 in its last hour$/);
			expect(check('history').found).toMatch(/account-[\da-f]{16}\.sqlite, [\d.]+ [kKM]?B, .* integrity ok$/);
			expect(check('history').figures).toMatchObject({kind: 'sqlite', integrity: 'ok'});
		} finally {
			agent.kill('SIGTERM');
			await ended;
		}
	});

	test('bad usage: an unknown flag exits 2 and sends nothing', async () => {
		const result = await runCli(['doctor', '--nonsense', ...urls()], env());
		expect(result.code).toBe(2);
		expect(result.stderr).toMatch(/unknown flag --nonsense/);
	});
});

import {mkdtempSync, readdirSync, rmSync, statSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {cliEnv, runCli} from '../helpers/run-cli.js';
import {startTestSim, type TestSim} from '../helpers/sim-client.js';

const apiKey = 'rpa_SPENDVERBKEY000000000000000000000';
const devKey = 'rpa_SPENDVERBDEVKEY00000000000000000';
const home = mkdtempSync(join(tmpdir(), 'podtop-spend-'));
let sim: TestSim;
let urls: string[];
const env = (key = apiKey) => cliEnv({RUNPOD_API_KEY: key, XDG_RUNTIME_DIR: home, XDG_STATE_HOME: home});

beforeAll(async () => {
	sim = await startTestSim({apiKey, devApiKey: devKey, podCount: 12, restQuota: {minute: 10_000, hour: 100_000, day: 1_000_000}});
	urls = ['--no-agent', '--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`];
});

afterAll(async () => {
	await sim?.close();
	rmSync(home, {recursive: true, force: true});
});

describe('podtop spend', () => {
	test('--json: the window, the totals, and per pod each one’s name, id and total, the costliest first', async () => {
		const {code, stdout, stderr} = await runCli(['spend', ...urls, '--by', 'pod', '--since', '2d', '--json'], env());
		expect(stderr).toBe('');
		expect(code).toBe(0);
		const report = JSON.parse(stdout);
		// Two days back from now, widened to whole UTC days: three of them, today's included.
		expect(report.window.bucketSize).toBe('day');
		expect(Date.parse(report.window.to) - Date.parse(report.window.from)).toBe(3 * 86_400_000);
		expect(report.window.from).toMatch(/T00:00:00\.000Z$/);
		expect(report.by).toBe('pod');
		expect(report.resources.map((resource: any) => resource.name)).toContain('llama-3-70b-finetune');
		expect(report.resources[0].total).toBeGreaterThanOrEqual(report.resources.at(-1).total);
		const sum = report.resources.reduce((total: number, resource: any) => total + resource.total, 0);
		expect(report.total).toBeCloseTo(sum, 4);
		expect(report.records[0].from).toBe(report.window.from);
		expect(report.records[0].id).toMatch(/^\w+$/);
		expect(Object.keys(report.byCategory)).toEqual(['podGpu', 'podCpu', 'podDisk']);
	});

	test('a table by category and a CSV by hour; names pass the sanitiser', async () => {
		await sim.call('PATCH', `/v2/pods/${(await sim.call('GET', '/v2/pods')).body.pods[0].id}`, {body: {name: 'evil\u001B]0;owned\u0007pod'}});
		const table = await runCli(['spend', ...urls, '--since', '3d'], env());
		expect(table.code).toBe(0);
		expect(table.stdout).toMatch(/^spend .* \(UTC days, local time\): \$\d+\.\d\d\n/);
		expect(table.stdout).toMatch(/\nBUCKET +TOTAL +POD GPU/);
		expect(table.stdout).toMatch(/\ntotal +\$\d+\.\d\d/);
		const byPod = await runCli(['spend', ...urls, '--since', '3d', '--by', 'pod'], env());
		expect(byPod.stdout).toContain('evil');
		expect(byPod.stdout).not.toContain('\u001B');
		expect(byPod.stdout).not.toContain('\u0007');
		const csv = await runCli(['spend', ...urls, '--bucket', 'hour', '--since', '2h', '--csv'], env());
		expect(csv.code).toBe(0);
		const [header, ...rows] = csv.stdout.trim().split('\n');
		expect(header).toBe(
			'from,to,total,podGpu,podCpu,podDisk,serverlessGpu,serverlessCpu,serverlessDisk,serverlessFee,storageStandard,storageHighPerformance,publicEndpoint,clusterGpu,clusterDisk,clusterNetworking',
		);
		expect(rows.length).toBeGreaterThanOrEqual(2);
	});

	test('bills are kept in the history file: a second run over the same closed days asks the service for none, and prints the same', async () => {
		const billing = async () =>
			Object.entries<{requests: number}>((await sim.call('GET', '/__sim/stats')).body.endpoints.rest ?? {})
				.filter(([route]) => route.includes('/billing'))
				.reduce((sum, [, stats]) => sum + stats.requests, 0);
		const today = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000);
		const from = new Date(today.getTime() - 5 * 86_400_000).toISOString();
		const window = ['--from', from, '--to', today.toISOString(), '--by', 'pod', '--json'];
		const before = await billing();
		const first = await runCli(['spend', ...urls, ...window], env());
		expect(first.code).toBe(0);
		const afterFirst = await billing();
		expect(afterFirst - before).toBe(1);
		const second = await runCli(['spend', ...urls, ...window], env());
		expect(second.code).toBe(0);
		expect(await billing()).toBe(afterFirst);
		expect(second.stdout).toBe(first.stdout);
		const folder = join(home, 'podtop', 'history');
		const files = readdirSync(folder).filter(name => name.endsWith('.sqlite'));
		expect(files).toHaveLength(1);
		expect(statSync(join(folder, files[0]!)).mode & 0o777).toBe(0o600);
		// --no-history asks again.
		expect((await runCli(['spend', ...urls, ...window, '--no-history'], env())).code).toBe(0);
		expect(await billing()).toBe(afterFirst + 1);
	});

	test('a key that cannot read billing exits 3 and says so; bad flags exit 2', async () => {
		const refused = await runCli(['spend', ...urls], env(devKey));
		expect(refused.code).toBe(3);
		expect(refused.stderr).toContain('this key cannot read billing');
		expect(refused.stderr).not.toContain(devKey);
		for (const flags of [['--bucket', 'minute'], ['--by', 'gpu'], ['--json', '--csv'], ['--since', '3d', '--from', '2026-11-01'], ['--bogus']]) {
			expect((await runCli(['spend', ...urls, ...flags], env())).code, flags.join(' ')).toBe(2);
		}
	});

	test('runs on the demo with no key', async () => {
		const {code, stdout} = await runCli(
			['spend', '--demo', '--no-agent', '--by', 'endpoint', '--json'],
			cliEnv({XDG_RUNTIME_DIR: home, XDG_STATE_HOME: home}),
			30_000,
		);
		expect(code).toBe(0);
		const report = JSON.parse(stdout);
		expect(report.resources.length).toBeGreaterThan(0);
		expect(report.resources.every((resource: any) => resource.name !== '')).toBe(true);
	});
});

import {spawn} from 'node:child_process';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';
import {cliEnv, cliPath, collect, runCli} from '../helpers/run-cli.js';

let sim: TestSim;
const key = 'rpa_WORKERSSECRET000011112222333344';
const id = 'crashyendpoint2';

beforeAll(async () => {
	sim = await startTestSim({
		apiKey: key,
		graphqlRate: 100,
		speed: 20,
		restQuota: {minute: 100_000, hour: 1_000_000, day: 10_000_000},
		endpoints: [
			{id, name: 'llava-crashing', worker: 'echo', workersMin: 1, workersMax: 1, gpuIds: 'ADA_24'},
			{id: 'quietendpoint01', name: 'quiet', worker: 'echo', workersMin: 0, workersMax: 0},
		],
		faults: [{kind: 'crash-loop', endpoint: id, cause: 'oom'}],
	});
	await sim.run(id, {delay_ms: 10});
	await waitFor(async () => (await sim.call('GET', `/v2/serverless/${id}/workers`)).body.workers.find((worker: any) => worker.gpuTypeId));
});

afterAll(async () => sim.close());

const live = () => cliEnv({RUNPOD_API_KEY: key});
const urls = () => ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`];

describe('podtop workers', () => {
	test('by name: the workers, the rollout and the diagnosis of one look, with its figures', async () => {
		const {code, stdout, stderr} = await runCli(['workers', 'llava-crashing', ...urls()], live());
		expect(stderr).toBe('');
		expect(code).toBe(0);
		expect(stdout).toMatch(/^llava-crashing \(crashyendpoint2\) · 1 active worker · release v0\n/);
		expect(stdout).toMatch(/diagnosis: 1 job waits, none served for 0s; causes?/);
		expect(stdout).toContain('at its limit: 1 of max 1 workers, 1 job waits');
		expect(stdout).toMatch(/rollout: v0 · 100 % on the latest \(1 of 1\) · v0/);
		expect(stdout).toMatch(/WORKER +STATUS +VERSION +GPU +DATA CENTER +UPTIME +STARTED\n\w+ +(RUNNING|THROTTLED) +v0 +1× NVIDIA/);
		expect(stdout).not.toContain(key);
	});

	test('--json by id; max 0 reads at its limit; an unknown endpoint exits 4; over GraphQL there are none, said (exit 1)', async () => {
		const json = await runCli(['workers', 'quietendpoint01', '--json', ...urls()], live());
		expect(json.code).toBe(0);
		const report = JSON.parse(json.stdout);
		expect(report).toMatchObject({endpoint: {id: 'quietendpoint01', name: 'quiet'}, workers: {workers: []}, rollout: {endpointVersion: 0}});
		expect(report.diagnosis.findings).toEqual([expect.objectContaining({kind: 'at-limit', text: 'at its limit: max workers is 0, so no worker may start'})]);
		const missing = await runCli(['workers', 'nope', ...urls()], live());
		expect(missing.code).toBe(4);
		expect(missing.stderr).toContain('no endpoint "nope"');
		const graphql = await runCli(['workers', id, '--management-api', 'graphql', ...urls()], live());
		expect(graphql.code).toBe(1);
		expect(graphql.stderr).toContain('workers are published by REST v2 only: GraphQL has none');
		expect((await runCli(['workers', ...urls()], live())).code).toBe(2);
	});

	test('snapshot and watch say the diagnosis where jobs wait, in text and JSON', async () => {
		const text = await runCli(['snapshot', ...urls()], live());
		expect(text.code).toBe(0);
		expect(text.stdout).toMatch(/\nllava-crashing \(crashyendpoint2\) diagnosis: \d+ jobs? waits?, none served for 0s; causes?/);
		expect(text.stdout).toMatch(/\n {2}at its limit: 1 of max 1 workers/);
		const json = JSON.parse((await runCli(['snapshot', '--json', ...urls()], live())).stdout);
		const crashing = json.endpoints.find((endpoint: any) => endpoint.id === id);
		expect(crashing.diagnosis.findings[0]).toMatchObject({kind: 'at-limit'});
		expect(json.endpoints.find((endpoint: any) => endpoint.id === 'quietendpoint01').diagnosis).toBeUndefined();
		const child = spawn(process.execPath, [cliPath, 'watch', '--jsonl', ...urls()], {env: live()});
		setTimeout(() => child.kill('SIGINT'), 6000);
		const {code, stdout} = await collect(child, 20_000);
		expect(code).toBe(0);
		const events = stdout
			.trim()
			.split('\n')
			.map(line => JSON.parse(line))
			.filter(event => event.type === 'diagnosis');
		expect(events).toContainEqual(
			expect.objectContaining({endpointId: id, word: 'at limit', findings: expect.arrayContaining([expect.objectContaining({kind: 'at-limit'})])}),
		);
		expect(events).toContainEqual(expect.objectContaining({endpointId: 'quietendpoint01', word: 'max 0'}));
	}, 40_000);
});

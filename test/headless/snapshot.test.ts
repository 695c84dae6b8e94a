import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {formatDollarsPerHour} from '../../source/format/numbers.js';
import {startTestSim, type TestSim} from '../helpers/sim-client.js';
import {cliEnv, runCli} from '../helpers/run-cli.js';

let sim: TestSim;
const key = 'rpa_SNAPSHOTSECRET0000111122223333';

beforeAll(async () => {
	sim = await startTestSim({apiKey: key, graphqlRate: 100});
});

afterAll(async () => sim.close());

const live = (extra: Record<string, string> = {}) => cliEnv({RUNPOD_API_KEY: key, ...extra});
const urls = () => ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`];

describe('podtop snapshot', () => {
	test('--json: endpoints with health, pods with runtime, GPU types with stock, in one document', async () => {
		const {code, stdout, stderr} = await runCli(['snapshot', '--json', ...urls()], live());
		expect(stderr).toBe('');
		expect(code).toBe(0);
		const snapshot = JSON.parse(stdout);
		expect(snapshot.mode).toBe('live');
		expect(snapshot.endpoints).toHaveLength(9);
		expect(snapshot.endpoints[0].health.workers).toHaveProperty('running');
		expect(snapshot.pods).toHaveLength(12);
		expect(snapshot.pods.some((pod: {runtime: unknown}) => pod.runtime)).toBe(true);
		expect(snapshot.gpuTypes.length).toBeGreaterThanOrEqual(15);
		expect(stdout).not.toContain(key);
	});

	test('text tables for people, without a TTY', async () => {
		const {code, stdout} = await runCli(['snapshot', ...urls()], live());
		expect(code).toBe(0);
		expect(stdout).toMatch(/^LIVE · 127\.0\.0\.1:\d+/);
		expect(stdout).toMatch(/ENDPOINT\s+NAME\s+RUN/);
		expect(stdout).toMatch(/llama-3-70b-finetune/);
		expect(stdout).toMatch(/NVIDIA H100 80GB HBM3/);
	});

	test('a stopped pod costs its volume now: the table shows that, and --json adds costNowPerHr beside the running price', async () => {
		type Pod = {id: string; desiredStatus: string; costPerHr: number; volumeInGb: number; gpuCount: number};
		const listed = (await sim.call('POST', '/graphql', {body: {query: '{ myself { pods { id desiredStatus costPerHr volumeInGb gpuCount } } }'}})).body.data
			.myself.pods as Pod[];
		const target = listed.find(pod => pod.desiredStatus === 'RUNNING' && pod.gpuCount > 0 && pod.volumeInGb > 0)!;
		await sim.call('POST', '/graphql', {body: {query: `mutation { podStop(input: {podId: "${target.id}"}) { id } }`}});
		// RunPod bills a stopped pod's volume at $0.20 per GB per month (730 h); its running price stays in costPerHr.
		const volumeNow = (target.volumeInGb * 0.2) / 730;

		const json = await runCli(['snapshot', '--json', ...urls()], live());
		expect(json.code).toBe(0);
		const pods = JSON.parse(json.stdout).pods as Array<Pod & {costNowPerHr: number | null; costNowEstimated: boolean}>;
		const stopped = pods.find(pod => pod.id === target.id)!;
		expect(stopped).toMatchObject({desiredStatus: 'EXITED', costPerHr: target.costPerHr, costNowEstimated: true});
		expect(stopped.costNowPerHr).toBeCloseTo(volumeNow, 10);
		const running = pods.find(pod => pod.desiredStatus === 'RUNNING')!;
		expect(running).toMatchObject({costNowPerHr: running.costPerHr, costNowEstimated: false});

		const text = await runCli(['snapshot', ...urls()], live());
		expect(text.stdout).toMatch(/POD\s+NAME\s+GPU\s+STATUS\s+GPU%\s+CPU%\s+MEM%\s+UPTIME\s+COST NOW\s+RUNNING \$\/H$/m);
		const row = text.stdout.split('\n').find(line => line.startsWith(target.id))!;
		expect(row).toMatch(/ EXITED /);
		expect(row.trimEnd().split(/\s+/).slice(-2)).toEqual([`~${formatDollarsPerHour(volumeNow)}`, formatDollarsPerHour(target.costPerHr)]);
	});

	test('--endpoints limits the picture, and takes public model endpoints by id', async () => {
		const {stdout} = await runCli(['snapshot', '--json', '--endpoints', 'black-forest-labs-flux-1-dev', ...urls()], live());
		const snapshot = JSON.parse(stdout);
		expect(snapshot.endpoints.map((endpoint: {id: string}) => endpoint.id)).toEqual(['black-forest-labs-flux-1-dev']);
	});

	test('a bad key: exit 3, one line on stderr, and the key is nowhere', async () => {
		const wrong = 'rpa_WRONGKEY99998888777766665555';
		const {code, stdout, stderr} = await runCli(['snapshot', ...urls()], cliEnv({RUNPOD_API_KEY: wrong}));
		expect(code).toBe(3);
		expect(stdout).toBe('');
		expect(stderr.trim().split('\n')).toHaveLength(1);
		expect(stderr).toMatch(/the key is not accepted \(HTTP 401\)/);
		expect(stderr).not.toContain(wrong);
	});

	test('an unknown endpoint: exit 4', async () => {
		const {code, stderr} = await runCli(['snapshot', '--endpoints', 'doesnotexist00', ...urls()], live());
		expect(code).toBe(4);
		expect(stderr).toMatch(/not found/);
	});

	test('no service: exit 5 with a network error', async () => {
		const {code, stderr} = await runCli(['snapshot', '--api-url', 'http://127.0.0.1:9/v2', '--graphql-url', 'http://127.0.0.1:9/graphql'], live());
		expect(code).toBe(5);
		expect(stderr.trim().split('\n')).toHaveLength(1);
		expect(stderr).toMatch(/network error/);
	});

	test('no key configured: DEMO on the built-in simulator, and it says so', async () => {
		const {code, stdout, stderr} = await runCli(['snapshot']);
		expect(code).toBe(0);
		expect(stdout).toMatch(/^DEMO/);
		expect(stderr).toMatch(/No API key configured/);
	});

	test('unknown flags are refused before anything is sent, with a guess when one is close', async () => {
		await sim.call('POST', '/__sim/stats/reset');
		const typo = await runCli(['snapshot', '--jsn', ...urls()], live());
		expect(typo.code).toBe(2);
		expect(typo.stderr).toBe('podtop: unknown flag --jsn for `podtop snapshot` (did you mean --json?); see podtop snapshot --help\n');
		const readOnly = await runCli(['watch', '--read-onyl', ...urls()], live());
		expect(readOnly.code).toBe(2);
		expect(readOnly.stderr).toMatch(/did you mean --read-only\?/);
		// --write on a verb that never writes is refused with why, not taken as a typo nor ignored.
		for (const verb of ['snapshot', 'watch', 'export', 'history', 'events']) {
			const write = await runCli([verb, '--write', ...urls()], live());
			expect(write.code, verb).toBe(2);
			expect(write.stderr, verb).toBe(
				`podtop: \`podtop ${verb}\` never writes, so --write means nothing to it (it lifts a read-only profile for the dashboard and the write verbs); drop it\n`,
			);
		}

		expect((await sim.call('GET', '/__sim/stats')).body.endpoints).toEqual({});
	});

	test('the key is refused as a flag, and never read from one', async () => {
		const {code, stderr} = await runCli(['snapshot', '--api-key', 'rpa_FLAGKEY'], live());
		expect(code).toBe(2);
		expect(stderr).toMatch(/never takes the API key on the command line/);
		expect(stderr).not.toContain('rpa_FLAGKEY');
	});
});

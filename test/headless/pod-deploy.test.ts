import {mkdtempSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {gql} from '../helpers/graphql-client.js';
import {cliEnv, runCli} from '../helpers/run-cli.js';
import {startTestSim, type TestSim} from '../helpers/sim-client.js';

let sim: TestSim;
const key = 'rpa_DEPLOYSECRET000011112222';
const state = mkdtempSync(path.join(tmpdir(), 'podtop-deploy-'));

beforeAll(async () => {
	sim = await startTestSim({apiKey: key, graphqlRate: 1000, podCount: 0});
});

afterAll(async () => sim.close());

const env = () => cliEnv({RUNPOD_API_KEY: key, XDG_STATE_HOME: state});
// GraphQL's semantics (a save sends the whole record back, spot pods, a pod stoppable at once); REST v2's: fleet-writes-v2.test.ts.
const urls = () => ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`, '--management-api', 'graphql'];
const pods = async () => (await gql(sim, '{ myself { pods { id name podType gpuCount ports env } } }')).body.data.myself.pods as Array<Record<string, unknown>>;
const graphqlRequests = async () => ((await sim.call('GET', '/__sim/stats')).body.endpoints.graphql?.request?.requests as number) ?? 0;

describe('podtop pod deploy over real HTTP', () => {
	test('--dry-run prints the mutation and its $/h and sends nothing', async () => {
		const {code, stdout, stderr} = await runCli(
			[
				'pod',
				'deploy',
				'--gpu-type',
				'NVIDIA L4',
				'--image',
				'runpod/pytorch',
				'--ports',
				'8888/http,22/tcp',
				'--env',
				'A=1',
				'--env',
				'B=two=2',
				'--dry-run',
				...urls(),
			],
			env(),
		);
		expect(code).toBe(0);
		expect(JSON.parse(stdout)).toEqual({
			mutation: 'podFindAndDeployOnDemand',
			input: {
				gpuTypeId: 'NVIDIA L4',
				gpuCount: 1,
				cloudType: 'ALL',
				imageName: 'runpod/pytorch',
				containerDiskInGb: 20,
				volumeInGb: 0,
				ports: '8888/http,22/tcp',
				env: [
					{key: 'A', value: '1'},
					{key: 'B', value: 'two=2'},
				],
			},
			dollarsPerHour: expect.any(Number),
		});
		expect(stderr).toMatch(/dry run, nothing sent; this pod would cost \$[\d.]+\/h/);
		expect(await pods()).toEqual([]);
	});

	test('bad input is refused with every problem named, before anything is sent (exit 2)', async () => {
		const before = await graphqlRequests();
		const local = await runCli(['pod', 'deploy', '--gpu-type', 'NVIDIA L4', '--ports', '88/ftp', '--env', '1A=b', '--count', '99', ...urls()], env());
		expect(local.code).toBe(2);
		expect(local.stderr).toMatch(
			/--count must be a whole number from 0 to 8; --image is required.*; --ports "88\/ftp" is not PORT\/http.*; --env "1A" is not KEY=value/,
		);
		expect(await graphqlRequests()).toBe(before);
		const unknown = await runCli(['pod', 'deploy', '--gpu-type', 'NOPE', '--image', 'x', ...urls()], env());
		expect(unknown.code).toBe(4);
		expect(unknown.stderr).toMatch(/no GPU type "NOPE" at the service; /);
		const lowBid = await runCli(['pod', 'deploy', '--gpu-type', 'NVIDIA L4', '--spot', '--bid', '0.001', '--image', 'x', ...urls()], env());
		expect(lowBid.code).toBe(2);
		expect(lowBid.stderr).toMatch(/--bid must be at least the minimum bid for this count, \$[\d.]+/);
		expect((await runCli(['pod', 'deploy', '--gpu-type', 'NVIDIA L4', '--bid', '1', '--image', 'x', ...urls()], env())).code).toBe(2);
		expect(await pods()).toEqual([]);
	});

	test('deploys on demand and spot; the new pod is there with its ports and env', async () => {
		const onDemand = await runCli(
			['pod', 'deploy', '--gpu-type', 'NVIDIA L4', '--image', 'x', '--name', 'cli-pod', '--ports', '8888/http', '--env', 'K=v', '--json', ...urls()],
			env(),
		);
		expect(onDemand.code, onDemand.stderr).toBe(0);
		expect(JSON.parse(onDemand.stdout)).toMatchObject({name: 'cli-pod', desiredStatus: 'RUNNING'});
		const spot = await runCli(['pod', 'deploy', '--gpu-type', 'NVIDIA L4', '--spot', '--bid', '5', '--image', 'x', '--name', 'cli-spot', ...urls()], env());
		expect(spot.code, spot.stderr).toBe(0);
		expect(spot.stdout).toMatch(/deployed: pod cli-spot \(\w+\) on L4 \(NVIDIA L4\) is RUNNING, \$5\.00\/h/);
		const made = await pods();
		expect(made).toEqual(
			expect.arrayContaining([
				expect.objectContaining({name: 'cli-pod', podType: 'RESERVED', ports: '8888/http', env: ['K=v']}),
				expect.objectContaining({name: 'cli-spot', podType: 'INTERRUPTABLE'}),
			]),
		);
	});

	test("no instances available: exit 1, the service's words, and the stock that caused it", async () => {
		const {code, stderr} = await runCli(['pod', 'deploy', '--gpu-type', 'NVIDIA B200', '--count', '8', '--cloud', 'secure', '--image', 'x', ...urls()], env());
		expect(code).toBe(1);
		expect(stderr).toMatch(/the stock of B200 for 8 GPU\(s\) in secure cloud: \w+, \d+ unreserved; try fewer GPUs, the other cloud, or another type/);
		expect(stderr).toMatch(/no longer any instances available/);
	});

	test('read-only: exit 6, no pod made', async () => {
		const before = (await pods()).length;
		const {code} = await runCli(['pod', 'deploy', '--gpu-type', 'NVIDIA L4', '--image', 'x', '--read-only', ...urls()], env());
		expect(code).toBe(6);
		expect(await pods()).toHaveLength(before);
	});
});

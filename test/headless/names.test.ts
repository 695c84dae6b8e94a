import {mkdtempSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {gql} from '../helpers/graphql-client.js';
import {cliEnv, runCli} from '../helpers/run-cli.js';
import {startTestSim, waitFor, waitForStatus, type TestSim} from '../helpers/sim-client.js';

let sim: TestSim;
const key = 'rpa_NAMESSECRET000011112222333344';
const state = mkdtempSync(path.join(tmpdir(), 'podtop-names-'));
const pods: Record<string, string> = {};

async function deploy(name: string): Promise<string> {
	const types = (await gql(sim, '{ gpuTypes { id lowestPrice(input: {gpuCount: 1, secureCloud: false}) { stockStatus } } }')).body.data.gpuTypes as Array<{
		id: string;
		lowestPrice: {stockStatus: string | null};
	}>;
	const plenty = types.find(type => type.lowestPrice.stockStatus === 'High')!;
	const reply = await gql(sim, 'mutation Deploy($input: PodFindAndDeployOnDemandInput!) { pod: podFindAndDeployOnDemand(input: $input) { id } }', {
		variables: {input: {name, gpuTypeId: plenty.id, gpuCount: 1, imageName: 'x', cloudType: 'COMMUNITY'}},
	});
	return reply.body.data.pod.id as string;
}

beforeAll(async () => {
	sim = await startTestSim({
		apiKey: key,
		graphqlRate: 1000,
		podCount: 0,
		endpoints: [
			{id: 'xt1gzq19i1floi', name: 'llama-3-8b-instruct-vllm', workersMin: 1, workersMax: 1, flashBoot: true},
			{id: 'p4rk3d0000abcd', name: 'parked-queue', workersMin: 0, workersMax: 0},
			{id: 'tw1n000000aaaa', name: 'twin', workersMin: 0, workersMax: 0},
			{id: 'tw1n000000bbbb', name: 'twin', workersMin: 0, workersMax: 0},
		],
	});
	pods.idle = await deploy('idle-dev-box');
	pods.twinA = await deploy('twin-pod');
	pods.twinB = await deploy('twin-pod');
});

afterAll(async () => sim.close());

const env = () => cliEnv({RUNPOD_API_KEY: key, XDG_STATE_HOME: state});
// GraphQL's semantics (a save sends the whole record back, spot pods, a pod stoppable at once); REST v2's: fleet-writes-v2.test.ts.
const urls = () => ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`, '--management-api', 'graphql'];
const cli = async (...args: string[]) => runCli([...args, ...urls()], env(), 60_000);
const requests = async (endpointId: string, operation: string) =>
	((await sim.call('GET', '/__sim/stats')).body.endpoints[endpointId]?.[operation]?.requests as number | undefined) ?? 0;
const podStatus = async (podId: string) =>
	((await gql(sim, `{ pod(input: {podId: "${podId}"}) { desiredStatus } }`)).body.data.pod as {desiredStatus: string}).desiredStatus;

describe('every verb takes a name where it takes an id', () => {
	test('run, job and cancel: the endpoint by its name; messages say the name and the id', async () => {
		const run = await cli('run', 'llama-3-8b-instruct-vllm', '--input', '{"delay_ms": 10}', '--no-follow');
		expect(run.code, run.stderr).toBe(0);
		expect(run.stderr).toMatch(/^podtop: job \S+ IN_QUEUE on llama-3-8b-instruct-vllm \(xt1gzq19i1floi\)\n$/);
		const jobId = run.stdout.trim();
		const job = await cli('job', 'LLAMA-3-8B-INSTRUCT-VLLM', jobId, '--json');
		expect(job.code, job.stderr).toBe(0);
		expect(JSON.parse(job.stdout)).toMatchObject({id: jobId, status: 'COMPLETED'});

		const long = await sim.run('xt1gzq19i1floi', {delay_ms: 60_000});
		const cancel = await cli('cancel', 'llama-3-8b-instruct-vllm', long);
		expect(cancel.code, cancel.stderr).toBe(0);
		expect(cancel.stdout).toBe(`cancelled: job ${long} on llama-3-8b-instruct-vllm (xt1gzq19i1floi) is CANCELLED\n`);
		await waitForStatus(sim, 'xt1gzq19i1floi', long, 'CANCELLED');
		// Ids keep working.
		const byId = await cli('run', 'xt1gzq19i1floi', '--input', '{}', '--no-follow');
		expect(byId.code, byId.stderr).toBe(0);
	}, 90_000);

	test('an unknown name is exit 4 with the closest names and their ids; a name two share lists both; nothing is sent', async () => {
		const before = await requests('xt1gzq19i1floi', 'run');
		const typo = await cli('run', 'llama-3-8b-instruct-vlm', '--input', '{}');
		expect(typo.code).toBe(4);
		expect(typo.stderr).toBe(
			'podtop: no endpoint "llama-3-8b-instruct-vlm" in this account; the closest: endpoint llama-3-8b-instruct-vllm (xt1gzq19i1floi)\n',
		);
		const nothingNear = await cli('run', 'zzzz', '--input', '{}');
		expect(nothingNear.code).toBe(4);
		expect(nothingNear.stderr).toMatch(
			/no endpoint "zzzz" in this account; there are 4: endpoint llama-3-8b-instruct-vllm \(xt1gzq19i1floi\); endpoint parked-queue/,
		);
		const shared = await cli('purge', 'twin', '--yes');
		expect(shared.code).toBe(4);
		expect(shared.stderr).toBe('podtop: "twin" names 2 things: endpoint twin (tw1n000000aaaa); endpoint twin (tw1n000000bbbb). Pick one by its id\n');
		expect(await requests('xt1gzq19i1floi', 'run')).toBe(before);
		expect(await requests('tw1n000000aaaa', 'purge-queue')).toBe(0);
	}, 90_000);

	test('purge: an empty queue has nothing to purge (exit 0, nothing asked or sent); a full one asks for --yes, by name', async () => {
		const empty = await cli('purge', 'parked-queue');
		expect(empty.code, empty.stderr).toBe(0);
		expect(empty.stdout).toBe('nothing to purge: the queue of parked-queue (p4rk3d0000abcd) is empty (0 running)\n');
		for (let index = 0; index < 3; index++) {
			await sim.run('p4rk3d0000abcd', {delay_ms: 10});
		}

		await waitFor(async () => (await sim.health('p4rk3d0000abcd')).jobs.inQueue === 3);
		const ask = await cli('purge', 'parked-queue');
		expect(ask.code).toBe(2);
		expect(ask.stderr).toMatch(/would purge 3 queued job\(s\) of parked-queue \(p4rk3d0000abcd\)/);
		const purge = await cli('purge', 'parked-queue', '--yes');
		expect(purge.code, purge.stderr).toBe(0);
		expect(purge.stdout).toBe('purged: 3 queued job(s) removed from parked-queue (p4rk3d0000abcd); running jobs untouched\n');
		expect(await requests('p4rk3d0000abcd', 'purge-queue')).toBe(1);
	}, 90_000);

	test('endpoint scale and update by name; a refusal names it too', async () => {
		const scale = await cli('endpoint', 'scale', 'parked-queue', '--min', '0', '--max', '2');
		expect(scale.code, scale.stderr).toBe(0);
		expect(scale.stdout).toBe('scaled: parked-queue (p4rk3d0000abcd) now runs 0 to 2 workers\n');
		const update = await cli('endpoint', 'update', 'parked-queue', '--idle-timeout', '7');
		expect(update.code, update.stderr).toBe(0);
		expect(update.stdout).toBe('updated: endpoint parked-queue (p4rk3d0000abcd)\n');
		const deleting = await cli('endpoint', 'delete', 'parked-queue', '--yes');
		expect(deleting.code).toBe(2);
		expect(deleting.stderr).toMatch(/parked-queue \(p4rk3d0000abcd\) still has workers .*First: podtop endpoint scale p4rk3d0000abcd --min 0 --max 0/);
	}, 90_000);

	test('pod stop and resume by name; a refused write says the name and the id; twins are told apart by id', async () => {
		const stop = await cli('pod', 'stop', 'idle-dev-box');
		expect(stop.code, stop.stderr).toBe(0);
		expect(stop.stdout).toMatch(new RegExp(String.raw`^stopped \(container disk wiped, volume kept\): pod idle-dev-box \(${pods.idle}\) is EXITED`));
		expect(await podStatus(pods.idle!)).toBe('EXITED');
		const again = await cli('pod', 'stop', 'idle-dev-box');
		expect(again.code).toBe(1);
		expect(again.stderr).toMatch(new RegExp(String.raw`^podtop: refused: stop pod idle-dev-box \(${pods.idle}\): `));
		const twins = await cli('pod', 'stop', 'twin-pod');
		expect(twins.code).toBe(4);
		expect(twins.stderr).toContain(`"twin-pod" names 2 things: pod twin-pod (${pods.twinA}); pod twin-pod (${pods.twinB}). Pick one by its id`);
		expect(await podStatus(pods.twinA!)).toBe('RUNNING');
		const typo = await cli('pod', 'resume', 'idle-dev-bx');
		expect(typo.code).toBe(4);
		expect(typo.stderr).toContain(`the closest: pod idle-dev-box (${pods.idle})`);
		const resume = await cli('pod', 'resume', pods.idle!);
		expect(resume.code, resume.stderr).toBe(0);
		expect(resume.stdout).toMatch(new RegExp(String.raw`^resumed: pod idle-dev-box \(${pods.idle}\) is RUNNING`));
	}, 90_000);

	test('pod deploy --gpu-type takes the name the GPUs pane shows', async () => {
		const dry = await cli('pod', 'deploy', '--gpu-type', 'L4', '--image', 'runpod/pytorch', '--dry-run');
		expect(dry.code, dry.stderr).toBe(0);
		expect(JSON.parse(dry.stdout)).toMatchObject({input: {gpuTypeId: 'NVIDIA L4'}});
		const unknown = await cli('pod', 'deploy', '--gpu-type', 'L5', '--image', 'runpod/pytorch', '--dry-run');
		expect(unknown.code).toBe(4);
		expect(unknown.stderr).toMatch(/^podtop: no GPU type "L5" at the service; the closest: gpu L4 \(NVIDIA L4\)/);
	}, 90_000);
});

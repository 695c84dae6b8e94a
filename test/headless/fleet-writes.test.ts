import {mkdtempSync, readFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {formatDollarsPerHour} from '../../source/format/numbers.js';
import {gql} from '../helpers/graphql-client.js';
import {cliEnv, runCli} from '../helpers/run-cli.js';
import {startTestSim, type TestSim} from '../helpers/sim-client.js';

let sim: TestSim;
const key = 'rpa_FLEETSECRET0000111122223333';
const state = mkdtempSync(path.join(tmpdir(), 'podtop-fleet-'));

beforeAll(async () => {
	sim = await startTestSim({apiKey: key, seed: 3, graphqlRate: 1000});
});

afterAll(async () => sim.close());

const env = () => cliEnv({RUNPOD_API_KEY: key, XDG_STATE_HOME: state});
// GraphQL's semantics (a save sends the whole record back, spot pods, a pod stoppable at once); REST v2's: fleet-writes-v2.test.ts.
const urls = () => ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`, '--management-api', 'graphql'];
type Pod = {id: string; name: string; desiredStatus: string; podType: string};
const pods = async () => (await gql(sim, '{ myself { pods { id name desiredStatus podType } } }')).body.data.myself.pods as Pod[];
const mutations = async () => ((await sim.call('GET', '/__sim/stats')).body.endpoints.graphql?.request?.requests as number) ?? 0;

describe('podtop pod over real HTTP', () => {
	test('stop, then resume, an on-demand pod; stopping it twice is refused by the service (exit 1)', async () => {
		const pod = (await pods()).find(each => each.desiredStatus === 'RUNNING' && each.podType === 'RESERVED')!;
		const stop = await runCli(['pod', 'stop', pod.id, ...urls()], env());
		expect(stop.code, stop.stderr).toBe(0);
		expect(stop.stdout).toMatch(new RegExp(String.raw`stopped \(container disk wiped, volume kept\): pod .* \(${pod.id}\) is EXITED`));
		// What it costs now is its volume ($0.20/GB/month, 730 h), not its running price, which it names as such.
		const {costPerHr, volumeInGb} = (await gql(sim, `{ pod(input: {podId: "${pod.id}"}) { costPerHr volumeInGb } }`)).body.data.pod as {
			costPerHr: number;
			volumeInGb: number;
		};
		const now = formatDollarsPerHour((volumeInGb * 0.2) / 730);
		expect(stop.stdout).toContain(
			`is EXITED, ~${now} now (stopped: volume ${volumeInGb} GB at $0.20/GB/month, estimated) · ${formatDollarsPerHour(costPerHr)} running`,
		);
		expect((await pods()).find(each => each.id === pod.id)!.desiredStatus).toBe('EXITED');
		const again = await runCli(['pod', 'stop', pod.id, ...urls()], env());
		expect(again.code).toBe(1);
		expect(again.stderr).toMatch(/refused: stop pod .* is not running/);
		const resume = await runCli(['pod', 'resume', pod.id, '--json', ...urls()], env());
		expect(resume.code).toBe(0);
		expect(JSON.parse(resume.stdout)).toMatchObject({id: pod.id, desiredStatus: 'RUNNING'});
	});

	test('a spot pod resumes only with a bid at or over the minimum', async () => {
		// A fresh spot pod on a type in stock, so the market has GPUs for its resume.
		const types = (await gql(sim, '{ gpuTypes { id lowestPrice(input: {gpuCount: 1, secureCloud: false}) { stockStatus minimumBidPrice } } }')).body.data
			.gpuTypes as Array<{id: string; lowestPrice: {stockStatus: string | null; minimumBidPrice: number | null}}>;
		const plenty = types.find(type => type.lowestPrice.stockStatus === 'High' && type.lowestPrice.minimumBidPrice !== null)!;
		const rented = await gql(sim, 'mutation Rent($input: PodRentInterruptableInput!) { podRentInterruptable(input: $input) { id } }', {
			variables: {input: {bidPerGpu: 5, gpuTypeId: plenty.id, gpuCount: 1, imageName: 'x', cloudType: 'COMMUNITY'}},
		});
		expect(rented.body.errors).toBeUndefined();
		const spot = {id: rented.body.data.podRentInterruptable.id as string};
		expect((await runCli(['pod', 'stop', spot.id, ...urls()], env())).code).toBe(0);

		const plain = await runCli(['pod', 'resume', spot.id, ...urls()], env());
		expect(plain.code).toBe(1);
		expect(plain.stderr).toMatch(/spot pod; resume it with podBidResume/);
		const low = await runCli(['pod', 'resume', spot.id, '--bid', '0.01', ...urls()], env());
		expect(low.code).toBe(1);
		expect(low.stderr).toMatch(/below the minimum bid price/);
		const high = await runCli(['pod', 'resume', spot.id, '--bid', '5', ...urls()], env());
		expect(high.code, high.stderr).toBe(0);
		expect(high.stdout).toMatch(/resumed: .* is RUNNING/);
	});

	test('terminate asks for --yes (exit 2, nothing sent), then deletes; an unknown pod is 4; bad flags are 2', async () => {
		const pod = (await pods()).find(each => each.desiredStatus === 'EXITED') ?? (await pods())[0]!;
		const unconfirmed = await runCli(['pod', 'terminate', pod.id, ...urls()], env());
		expect(unconfirmed.code).toBe(2);
		expect(unconfirmed.stderr).toMatch(new RegExp(String.raw`would terminate pod .* \(${pod.id}\), \w+; its volume is lost for good\. Add --yes`));
		expect((await pods()).some(each => each.id === pod.id)).toBe(true);
		const done = await runCli(['pod', 'terminate', pod.id, '--yes', ...urls()], env());
		expect(done.code, done.stderr).toBe(0);
		expect(done.stdout).toMatch(/terminated: pod .* is gone, with its volume/);
		expect((await pods()).some(each => each.id === pod.id)).toBe(false);
		expect((await runCli(['pod', 'stop', 'nosuchpod', ...urls()], env())).code).toBe(4);
		for (const args of [
			['pod', 'halt', pod.id],
			['pod', 'resume', pod.id, '--bid', '-1'],
			['pod', 'stop', pod.id, '--bid', '1'],
		]) {
			expect((await runCli([...args, ...urls()], env())).code, args.join(' ')).toBe(2);
		}
	});

	test('read-only: exit 6 and no mutation leaves the process', async () => {
		const pod = (await pods())[0]!;
		const before = await mutations();
		const refused = await runCli(['pod', 'stop', pod.id, '--read-only', ...urls()], env());
		expect(refused.code).toBe(6);
		expect(await mutations()).toBe(before);
	});
});

describe('podtop endpoint over real HTTP', () => {
	type Endpoint = {id: string; name: string; workersMin: number; workersMax: number; idleTimeout: number; executionTimeoutMs: number};
	const endpoints = async () =>
		(await gql(sim, '{ myself { endpoints { id name workersMin workersMax idleTimeout executionTimeoutMs } } }')).body.data.myself.endpoints as Endpoint[];

	test('scale sends the whole record back with the two fields changed; delete needs zero workers and --yes', async () => {
		const endpoint = (await endpoints()).find(each => each.workersMax > 0)!;
		const refused = await runCli(['endpoint', 'delete', endpoint.id, '--yes', ...urls()], env());
		expect(refused.code).toBe(2);
		expect(refused.stderr).toMatch(new RegExp(`still has workers .* First: podtop endpoint scale ${endpoint.id} --min 0 --max 0`));
		expect((await runCli(['endpoint', 'scale', endpoint.id, '--min', '3', '--max', '1', ...urls()], env())).code).toBe(2);
		const scaled = await runCli(['endpoint', 'scale', endpoint.id, '--min', '0', '--max', '0', ...urls()], env());
		expect(scaled.code, scaled.stderr).toBe(0);
		expect(scaled.stdout).toMatch(/scaled: .* now runs 0 to 0 workers/);
		const after = (await endpoints()).find(each => each.id === endpoint.id)!;
		// Nothing else went back to a default: the idle timeout and execution timeout are as they were.
		expect(after).toEqual({...endpoint, workersMin: 0, workersMax: 0});
		const unconfirmed = await runCli(['endpoint', 'delete', endpoint.id, ...urls()], env());
		expect(unconfirmed.code).toBe(2);
		expect(unconfirmed.stderr).toMatch(/add --yes to delete it/);
		const deleted = await runCli(['endpoint', 'delete', endpoint.id, '--yes', '--json', ...urls()], env());
		expect(deleted.code, deleted.stderr).toBe(0);
		expect(JSON.parse(deleted.stdout)).toMatchObject({outcome: 'ok'});
		expect((await endpoints()).some(each => each.id === endpoint.id)).toBe(false);
		expect((await runCli(['endpoint', 'scale', 'nosuchendpoint', '--min', '0', '--max', '1', ...urls()], env())).code).toBe(4);
	});

	test('update says old → new and sends the whole record back; create needs name, template and pools; --dry-run sends nothing', async () => {
		const endpoint = (await endpoints()).find(each => each.workersMax > 0)!;
		const dry = await runCli(['endpoint', 'update', endpoint.id, '--max', String(endpoint.workersMax + 1), '--dry-run', ...urls()], env());
		expect(dry.code).toBe(0);
		expect(dry.stderr).toMatch(new RegExp(`workersMax ${endpoint.workersMax} → ${endpoint.workersMax + 1}`));
		expect(JSON.parse(dry.stdout)).toMatchObject({
			mutation: 'saveEndpoint',
			input: {id: endpoint.id, workersMax: endpoint.workersMax + 1, idleTimeout: endpoint.idleTimeout},
		});
		expect((await endpoints()).find(each => each.id === endpoint.id)).toEqual(endpoint);
		const updated = await runCli(
			['endpoint', 'update', endpoint.id, '--max', String(endpoint.workersMax + 1), '--scaler-type', 'REQUEST_COUNT', ...urls()],
			env(),
		);
		expect(updated.code, updated.stderr).toBe(0);
		expect((await endpoints()).find(each => each.id === endpoint.id)).toEqual({...endpoint, workersMax: endpoint.workersMax + 1});
		const same = await runCli(['endpoint', 'update', endpoint.id, '--max', String(endpoint.workersMax + 1), ...urls()], env());
		expect(same.code).toBe(2);
		expect(same.stderr).toMatch(/nothing to change/);
		const missing = await runCli(['endpoint', 'create', '--name', 'x', ...urls()], env());
		expect(missing.code).toBe(2);
		expect(missing.stderr).toMatch(/--template is required.*; --gpu-ids is required/);
		const badScaler = await runCli(['endpoint', 'update', endpoint.id, '--scaler-type', 'FAST', ...urls()], env());
		expect(badScaler.code).toBe(2);
		const created = await runCli(
			['endpoint', 'create', '--name', 'cli-made-fb', '--template', 'tpl-9', '--gpu-ids', 'ADA_24,AMPERE_48', '--max', '2', '--json', ...urls()],
			env(),
		);
		expect(created.code, created.stderr).toBe(0);
		expect(JSON.parse(created.stdout)).toMatchObject({name: 'cli-made-fb', gpuIds: 'ADA_24,AMPERE_48', workersMax: 2, flashBootType: 'FLASHBOOT'});
	});

	test('every write was audited, and the key appears nowhere in the log', () => {
		const log = readFileSync(path.join(state, 'podtop', 'audit.jsonl'), 'utf8');
		const operations = log
			.trim()
			.split('\n')
			.map(line => (JSON.parse(line) as {operation: string}).operation);
		expect(new Set(operations)).toEqual(
			new Set(['pod.stop', 'pod.resume', 'pod.bid-resume', 'pod.terminate', 'endpoint.scale', 'endpoint.delete', 'endpoint.update', 'endpoint.create']),
		);
		expect(log).not.toContain(key);
	});
});

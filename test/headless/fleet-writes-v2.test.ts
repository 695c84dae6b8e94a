import {mkdtempSync, readFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {cliEnv, runCli} from '../helpers/run-cli.js';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';

let sim: TestSim;
const key = 'rpa_FLEETV2SECRET000011112222';
const state = mkdtempSync(path.join(tmpdir(), 'podtop-fleet-v2-'));

beforeAll(async () => {
	sim = await startTestSim({apiKey: key, seed: 3, restQuota: {minute: 10_000, hour: 100_000, day: 1_000_000}});
});

afterAll(async () => sim.close());

const env = () => cliEnv({RUNPOD_API_KEY: key, XDG_STATE_HOME: state});
// The management plane over REST v2 only: a write that v2 cannot carry must say so, not fall back.
const urls = () => ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`, '--management-api', 'v2'];
type V2Pod = {id: string; name: string; status: string; actions: string[]; cost: number; gpu?: {id: string; count: number}};
type V2Endpoint = {id: string; name: string; workers: {min: number; max: number; idleTimeout?: number}; flashboot: string; scaling: {type: string}};
const v2 = async (route: string) => (await sim.call('GET', route)).body as Record<string, unknown>;
const pods = async () => (await v2('/v2/pods')).pods as V2Pod[];
const endpoints = async () => (await v2('/v2/serverless')).endpoints as V2Endpoint[];
const graphqlRequests = async () => ((await sim.call('GET', '/__sim/stats')).body.endpoints.graphql?.request?.requests as number) ?? 0;

describe('podtop pod over REST v2', () => {
	test('stop by name, refused again with the actions the service allows, resume; a stopped pod shows its running price, not $0', async () => {
		const pod = (await pods()).find(each => each.status === 'RUNNING' && each.actions.includes('stop') && each.gpu)!;
		const graphqlBefore = await graphqlRequests();
		const stop = await runCli(['pod', 'stop', pod.name, ...urls()], env());
		expect(stop.code, stop.stderr).toBe(0);
		expect(stop.stdout).toMatch(new RegExp(String.raw`stopped \(container disk wiped, volume kept\): pod .* \(${pod.id}\) is EXITED`));
		expect(stop.stdout).toMatch(/ · \$\d+\.\d\d\/h running/);
		expect(stop.stdout).not.toMatch(/\$0\.00\/h running/);
		expect((await pods()).find(each => each.id === pod.id)).toMatchObject({status: 'EXITED', actions: ['start', 'terminate'], cost: 0});
		const again = await runCli(['pod', 'stop', pod.id, ...urls()], env());
		expect(again.code).toBe(1);
		// The service's 409 with its detail, made inert: what is allowed now.
		expect(again.stderr).toMatch(/EXITED.*start, terminate/);
		const resume = await runCli(['pod', 'resume', pod.id, '--json', ...urls()], env());
		expect(resume.code, resume.stderr).toBe(0);
		expect(JSON.parse(resume.stdout)).toMatchObject({id: pod.id, desiredStatus: expect.stringMatching(/^(STARTING|RUNNING)$/)});
		// Pod writes and their re-polls went over v2 alone.
		expect(await graphqlRequests()).toBe(graphqlBefore);
	});

	test('a pod the service is still provisioning can only be terminated: stop is the service’s 409; terminate is 204, then it is gone (4)', async () => {
		// A type in stock on secure cloud, as the catalog says for pods.
		const catalog = (await v2('/v2/catalog/gpus?include=AVAILABILITY&product=POD')).gpus as Array<{name: string; secure: boolean; availability?: string}>;
		const plenty = catalog.find(gpu => gpu.secure && ['HIGH', 'MEDIUM'].includes(gpu.availability ?? ''))!;
		const deployed = await runCli(
			['pod', 'deploy', '--gpu-type', plenty.name, '--cloud', 'secure', '--image', 'runpod/pytorch:2.4', '--name', 'v2-fresh', '--json', ...urls()],
			env(),
		);
		expect(deployed.code, deployed.stderr).toBe(0);
		const fresh = JSON.parse(deployed.stdout) as {id: string; desiredStatus: string; actions: string[]};
		expect(fresh).toMatchObject({desiredStatus: 'PROVISIONING', actions: ['terminate']});
		const stop = await runCli(['pod', 'stop', fresh.id, ...urls()], env());
		expect(stop.code).toBe(1);
		expect(stop.stderr).toMatch(/PROVISIONING.*terminate/);
		const done = await runCli(['pod', 'terminate', fresh.id, '--yes', ...urls()], env());
		expect(done.code, done.stderr).toBe(0);
		await waitFor(async () => !(await pods()).some(each => each.id === fresh.id));
		expect((await runCli(['pod', 'stop', fresh.id, ...urls()], env())).code).toBe(4);
	});

	test('a spot resume over v2 alone is refused before anything is sent: v2 has no spot pods', async () => {
		const pod = (await pods()).find(each => each.status === 'EXITED')!;
		const before = await graphqlRequests();
		const bid = await runCli(['pod', 'resume', pod.id, '--bid', '5', ...urls()], env());
		expect(bid.code).toBe(1);
		expect(bid.stderr).toMatch(/v2 has no spot/);
		expect(await graphqlRequests()).toBe(before);
	});
});

describe('podtop endpoint over REST v2', () => {
	test('create sends FlashBoot as asked (off when not asked); update and scale send only what changed; delete at zero workers', async () => {
		const created = await runCli(
			[
				'endpoint',
				'create',
				'--name',
				'v2-made',
				'--template',
				'tpl-9',
				'--gpu-ids',
				'ADA_24,AMPERE_48',
				'--max',
				'2',
				'--flashboot',
				'priority',
				'--json',
				...urls(),
			],
			env(),
		);
		expect(created.code, created.stderr).toBe(0);
		const {id} = JSON.parse(created.stdout) as {id: string};
		expect((await endpoints()).find(each => each.id === id)).toMatchObject({name: 'v2-made', flashboot: 'PRIORITY_FLASHBOOT', workers: {max: 2}});
		const plain = await runCli(['endpoint', 'create', '--name', 'v2-plain-fb', '--template', 'tpl-9', '--gpu-ids', 'ADA_24', '--json', ...urls()], env());
		expect(plain.code, plain.stderr).toBe(0);
		// Over v2 a name ending in -fb is only a name: FlashBoot is off unless asked.
		expect((await endpoints()).find(each => each.name === 'v2-plain-fb')).toMatchObject({flashboot: 'OFF'});
		expect((await runCli(['endpoint', 'create', '--name', 'x', '--template', 't', '--gpu-ids', 'ADA_24', '--flashboot', 'fast', ...urls()], env())).code).toBe(
			2,
		);

		// Another tool changes the idle timeout meanwhile: a change of max workers sent alone leaves it as that tool set it.
		await sim.call('PATCH', `/v2/serverless/${id}`, {body: {workers: {idleTimeout: 77}}});
		const updated = await runCli(['endpoint', 'update', 'v2-made', '--max', '4', ...urls()], env());
		expect(updated.code, updated.stderr).toBe(0);
		expect(updated.stdout + updated.stderr).toMatch(/workersMax 2 → 4/);
		expect((await endpoints()).find(each => each.id === id)).toMatchObject({workers: {max: 4, idleTimeout: 77}, flashboot: 'PRIORITY_FLASHBOOT'});
		const scaled = await runCli(['endpoint', 'scale', id, '--min', '0', '--max', '0', ...urls()], env());
		expect(scaled.code, scaled.stderr).toBe(0);
		expect((await endpoints()).find(each => each.id === id)).toMatchObject({workers: {min: 0, max: 0, idleTimeout: 77}});
		const deleted = await runCli(['endpoint', 'delete', id, '--yes', '--json', ...urls()], env());
		expect(deleted.code, deleted.stderr).toBe(0);
		expect((await endpoints()).some(each => each.id === id)).toBe(false);
		expect((await runCli(['endpoint', 'scale', 'nosuchendpoint', '--min', '0', '--max', '1', ...urls()], env())).code).toBe(4);
	});

	test('every write was audited, and the key appears nowhere in the log', () => {
		const log = readFileSync(path.join(state, 'podtop', 'audit.jsonl'), 'utf8');
		const operations = new Set(
			log
				.trim()
				.split('\n')
				.map(line => (JSON.parse(line) as {operation: string}).operation),
		);
		for (const operation of [
			'pod.stop',
			'pod.resume',
			'pod.deploy',
			'pod.terminate',
			'endpoint.create',
			'endpoint.update',
			'endpoint.scale',
			'endpoint.delete',
		]) {
			expect(operations, operation).toContain(operation);
		}

		expect(log).not.toContain(key);
	});
});

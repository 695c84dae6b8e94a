import {afterEach, describe, expect, test} from 'vitest';
import {waitFor, waitForStatus} from '../../helpers/sim-client.js';
import {closeRestSims, startRestSim, type RestSim} from './rest-client.js';
import {openLogStream} from './sse-client.js';

afterEach(closeRestSims);

const echo = {id: 'echoendpoint01', worker: 'echo', workersMin: 1, workersMax: 1, flashBoot: true, gpuIds: 'ADA_24', locations: 'US'} as const;

async function idleWorker(sim: RestSim, endpoint: string): Promise<any> {
	return waitFor(async () => (await sim.rest('GET', `/v2/serverless/${endpoint}/workers`)).body.workers.find((worker: any) => worker.status === 'IDLE'));
}

describe('v2 serverless workers', () => {
	test('lists the pool /health counts, each worker placed in one of its pools, with a summary that adds up', async () => {
		const sim = await startRestSim({speed: 20, endpoints: [echo]});
		const worker = await idleWorker(sim, echo.id);
		const {body} = await sim.rest('GET', `/v2/serverless/${echo.id}/workers`);
		expect(body.summary).toEqual({running: 0, idle: 1, initializing: 0, throttled: 0, unhealthy: 0, total: 1});
		expect(body.endpointVersion).toBe(0);
		expect(worker).toMatchObject({isStale: false, version: 0, gpuCount: 1, image: 'runpod/sim-template:latest'});
		expect(['NVIDIA GeForce RTX 4090', 'NVIDIA L4', 'NVIDIA RTX 4000 Ada Generation']).toContain(worker.gpuTypeId);
		expect(worker.dataCenterId).toMatch(/^US-/);
		expect(worker.uptimeSeconds).toBeGreaterThanOrEqual(0);
		expect(worker.startedAt).toMatch(/^2026-12-01T12:/);
		expect((await sim.health(echo.id)).workers).toMatchObject({idle: 1, unhealthy: 0});
		expect((await sim.rest('GET', '/v2/serverless/nope/workers')).status).toBe(404);
		expect((await sim.rest('GET', '/v2/serverless/black-forest-labs-flux-1-dev/workers')).status).toBe(404);
	});

	test('a release on PATCH of image or env: its diff, stale workers replaced as they cycle, the rollout reaching 100 %', async () => {
		const sim = await startRestSim({speed: 20, endpoints: [echo]});
		const old = await idleWorker(sim, echo.id);
		const first = (await sim.rest('GET', `/v2/serverless/${echo.id}/releases`)).body;
		expect(first).toMatchObject({endpointVersion: 0, rollout: {inProgress: false, workersOnLatest: 1, workersTotal: 1, percentOnLatest: 100}});
		expect(first.releases).toHaveLength(1);
		expect((await sim.rest('PATCH', `/v2/serverless/${echo.id}`, {body: {workers: {max: 2}}})).status).toBe(200);
		expect((await sim.rest('GET', `/v2/serverless/${echo.id}/releases`)).body.endpointVersion).toBe(0);
		await sim.rest('PATCH', `/v2/serverless/${echo.id}`, {body: {image: 'acme/echo:2', env: {MODE: 'fast'}}});
		const rolling = (await sim.rest('GET', `/v2/serverless/${echo.id}/releases`)).body;
		expect(rolling.endpointVersion).toBe(1);
		expect(rolling.releases[0]).toMatchObject({version: 1, source: 'MANUAL', workerCount: 0});
		expect(rolling.releases[0].diff).toEqual([
			{field: 'template.imageName', old: 'runpod/sim-template:latest', new: 'acme/echo:2'},
			{field: 'template.env', old: {}, new: {MODE: 'fast'}},
		]);
		expect(rolling.releases[1]).toMatchObject({version: 0, workerCount: 1});
		const stale = (await sim.rest('GET', `/v2/serverless/${echo.id}/workers`)).body.workers.find((worker: any) => worker.id === old.id);
		expect(stale).toMatchObject({isStale: true, version: 0});
		const fresh = await waitFor(async () => {
			const {body} = await sim.rest('GET', `/v2/serverless/${echo.id}/workers`);
			return body.workers.length === 1 && body.workers[0].status === 'IDLE' && !body.workers[0].isStale && body.workers[0];
		}, 20_000);
		expect(fresh).toMatchObject({version: 1, image: 'acme/echo:2'});
		expect(fresh.id).not.toBe(old.id);
		expect((await sim.rest('GET', `/v2/serverless/${echo.id}/releases`)).body.rollout).toEqual({
			inProgress: false,
			workersOnLatest: 1,
			workersTotal: 1,
			percentOnLatest: 100,
		});
	});
});

describe('v2 worker logs', () => {
	test('system and container lines, each job with its id; tail (default 100), source, since', async () => {
		const sim = await startRestSim({speed: 20, endpoints: [echo]});
		await idleWorker(sim, echo.id);
		// Jobs until one worker has served 40 (now and then a worker turns unhealthy and another takes over).
		const served = new Map<string, string[]>();
		let worker = '';
		while ((served.get(worker)?.length ?? 0) < 40) {
			const job = await sim.run(echo.id, {delay_ms: 10});
			await waitForStatus(sim, echo.id, job, 'COMPLETED');
			worker = (await sim.call('GET', `/__sim/jobs/${echo.id}`)).body.jobs.find((each: any) => each.id === job).workerId;
			served.set(worker, [...(served.get(worker) ?? []), job]);
		}

		const jobs = served.get(worker)!;
		const path = `/v2/serverless/${echo.id}/workers/${worker}/logs`;
		const all = await openLogStream(sim, `${path}?tail=5000`);
		const boot = await all.takeUntil(event => event.data.line === 'Worker ready');
		expect(boot.filter(event => event.data.source === 'system').map(event => event.data.line)).toEqual(
			expect.arrayContaining([
				expect.stringMatching(/^Worker \w+ placed on 1x /),
				expect.stringMatching(/^Restoring FlashBoot snapshot/),
				'Starting container',
			]),
		);
		expect(boot.map(event => event.data.line)).toContain('--- Starting Serverless Worker |  Version 1.7.9 ---');
		const rest = await all.takeUntil(event => event.data.line.includes(jobs.at(-1)!) && event.data.line.includes('Finished.'));
		const lines = [...boot, ...rest];
		all.close();
		for (const job of jobs) {
			expect(lines.filter(event => event.data.line.includes(job)).map(event => JSON.parse(event.data.line).message)).toEqual([
				'Started.',
				expect.stringMatching(/^Handler received input/),
				'Finished.',
			]);
		}

		const tail = await openLogStream(sim, path);
		const hundred = await tail.take(100);
		expect(hundred.map(event => event.id)).toEqual(lines.slice(-100).map(event => event.id));
		tail.close();
		const system = await openLogStream(sim, `${path}?source=system&tail=3`);
		expect((await system.take(3)).map(event => event.id)).toEqual(
			lines
				.filter(event => event.data.source === 'system')
				.slice(-3)
				.map(event => event.id),
		);
		system.close();
		const since = await openLogStream(sim, `${path}?since=${encodeURIComponent(lines.at(-1)!.data.ts)}&tail=1`);
		const fromSecond = lines.filter(event => event.data.ts >= lines.at(-1)!.data.ts);
		expect((await since.take(fromSecond.length)).map(event => event.id)).toEqual(fromSecond.map(event => event.id));
		since.close();
		for (const query of ['tail=5001', 'tail=-1', 'source=stdout', 'since=yesterday']) {
			expect((await openLogStream(sim, `${path}?${query}`)).status).toBe(422);
		}

		expect((await openLogStream(sim, path, {'last-event-id': 'not-an-id'})).status).toBe(400);
		expect((await openLogStream(sim, `/v2/serverless/${echo.id}/workers/nope/logs`)).status).toBe(404);
	});
});

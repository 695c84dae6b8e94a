import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {Pools} from '../../../source/api/pools.js';
import {createRestApi} from '../../../source/api/rest/rest-api.js';
import type {ManagementApi} from '../../../source/model/management-api.js';
import {waitFor} from '../../helpers/sim-client.js';
import {closeRestSims, startRestSim, type RestSim} from '../../sim/rest/rest-client.js';

const apiKey = 'rpa_RESTWORKERS0123456789';
const echo = {id: 'echoendpoint01', worker: 'echo', workersMin: 1, workersMax: 1, flashBoot: true, gpuIds: 'ADA_24', locations: 'US'} as const;
let sim: RestSim;
let pools: Pools;
let api: ManagementApi;

beforeAll(async () => {
	sim = await startRestSim({apiKey, speed: 20, endpoints: [echo], restQuota: {minute: 10_000, hour: 100_000, day: 1_000_000}});
	pools = new Pools();
	api = createRestApi({baseUrl: sim.url, apiKey, pools});
});

afterAll(async () => {
	await pools.close();
	await closeRestSims();
});

describe('REST v2 adapter: workers and releases as podtop’s records', () => {
	test('a worker’s facts, its start as epoch ms; a gone endpoint is undefined', async () => {
		const list = await waitFor(async () => {
			const read = await api.workers!(echo.id);
			return read?.workers.some(worker => worker.status === 'IDLE') ? read : undefined;
		});
		expect(list).toMatchObject({endpointId: echo.id, endpointVersion: 0});
		const [worker] = list.workers;
		expect(worker).toMatchObject({status: 'IDLE', isStale: false, version: 0, gpuCount: 1, image: 'runpod/sim-template:latest'});
		expect(worker!.dataCenterId).toMatch(/^US-/);
		expect(worker!.startedAt).toBeGreaterThanOrEqual(Date.UTC(2026, 11, 1, 12));
		expect(await api.workers!('nope')).toBeUndefined();
		expect(await api.releases!('nope')).toBeUndefined();
	});

	test('a release’s diff as text, newest first, with the rollout', async () => {
		await sim.rest('PATCH', `/v2/serverless/${echo.id}`, {body: {image: 'acme/echo:2', env: {MODE: 'fast'}}});
		const rollout = await api.releases!(echo.id);
		expect(rollout).toMatchObject({endpointId: echo.id, endpointVersion: 1, inProgress: true, workersOnLatest: 0, workersTotal: 1, percentOnLatest: 0});
		expect(rollout!.releases.map(release => release.version)).toEqual([1, 0]);
		expect(rollout!.releases[0]!.diff).toContainEqual({field: 'template.imageName', old: 'runpod/sim-template:latest', new: 'acme/echo:2'});
	});
});

import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {createGraphqlApi} from '../../source/api/graphql-api.js';
import type {ManagementApi} from '../../source/model/management-api.js';
import {Pools} from '../../source/api/pools.js';
import {documents} from '../../source/api/graphql-documents.js';
import type {PodRecord} from '../../source/model/pod.js';
import {caught as caughtError} from '../helpers/caught.js';
import {gqlData} from '../helpers/graphql-client.js';
import {startTestSim, type TestSim} from '../helpers/sim-client.js';

let sim: TestSim;
let pools: Pools;
let api: ManagementApi;

beforeAll(async () => {
	sim = await startTestSim({graphqlRate: 1000, apiKey: 'rpa_GRAPHQLSECRET987654'});
	pools = new Pools();
	api = createGraphqlApi({url: `${sim.url}/graphql`, apiKey: sim.apiKey, pools});
});

afterAll(async () => {
	await pools.close();
	await sim.close();
});

const caught = async (promise: Promise<unknown>) => caughtError(promise, sim.apiKey);

describe('GraphQL client: every operation against the simulator', () => {
	test('endpoints, pods, pod, gpuTypes', async () => {
		const endpoints = await api.endpoints();
		expect(endpoints).toHaveLength(9);
		expect(endpoints[0]).toMatchObject({id: expect.any(String), workersMax: expect.any(Number)});
		const pods = await api.pods();
		expect(pods).toHaveLength(12);
		const running = pods.find(pod => pod.desiredStatus === 'RUNNING')!;
		expect(running.runtime?.gpus?.length).toBe(running.gpuCount);
		expect(await api.pod(running.id)).toMatchObject({id: running.id});
		expect(await api.pod('nope')).toBeNull();
		const gpuTypes = await api.gpuTypes();
		expect(gpuTypes.length).toBeGreaterThanOrEqual(15);
		expect(gpuTypes[0]!.lowestPrice).toHaveProperty('stockStatus');
	});

	test('saveEndpoint and deleteEndpoint', async () => {
		const created = await api.saveEndpoint({name: 'client-made', templateId: 't', gpuIds: 'ADA_24', workersMin: 0, workersMax: 0});
		expect(created).toMatchObject({name: 'client-made', workersMax: 0});
		await api.deleteEndpoint(created.id);
		expect((await api.endpoints()).map(endpoint => endpoint.id)).not.toContain(created.id);
	});

	test('deploy, stop, resume, terminate; spot rent and bid-resume', async () => {
		const types = await api.gpuTypes();
		const open = types.find(type => (type.lowestPrice?.maxUnreservedGpuCount ?? 0) >= 2 && type.communityPrice !== null)!;
		const pod = await api.deployOnDemand({gpuTypeId: open.id, imageName: 'runpod/pytorch', cloudType: 'COMMUNITY', env: [{key: 'A', value: 'b'}]});
		expect(pod.desiredStatus).toBe('RUNNING');
		expect((await api.stop(pod.id)).desiredStatus).toBe('EXITED');
		expect((await api.resume(pod.id)).desiredStatus).toBe('RUNNING');
		await api.terminate(pod.id);
		expect(await api.pod(pod.id)).toBeNull();

		const bid = open.lowestPrice!.minimumBidPrice! * 3;
		const spot = await api.rentInterruptable({gpuTypeId: open.id, imageName: 'x', cloudType: 'COMMUNITY', bidPerGpu: bid});
		expect(spot.podType).toBe('INTERRUPTABLE');
		await api.stop(spot.id);
		expect((await api.bidResume(spot.id, bid)).desiredStatus).toBe('RUNNING');
	});
});

describe('GraphQL client: errors', () => {
	test('a resolver error → graphql with errors[0].message; its NOT_FOUND code → not-found', async () => {
		const missing = await caught(api.stop('nope'));
		expect(missing.kind).toBe('not-found');
		expect(missing.message).toMatch(/Pod nope not found/);
		const refused = await caught(api.deleteEndpoint((await api.endpoints()).find(endpoint => (endpoint.workersMax ?? 0) > 0)!.id));
		expect(refused.kind).toBe('graphql');
		expect(refused.message).toMatch(/still has workers/);
	});

	test('a bad key → auth; 429 → rate-limited with Retry-After; 5xx → server', async () => {
		const bad = createGraphqlApi({url: `${sim.url}/graphql`, apiKey: 'nope-nope', pools});
		expect((await caught(bad.pods())).kind).toBe('auth');
		await sim.call('POST', '/__sim/faults', {body: {operation: 'graphql', status: 429, retryAfter: 3}});
		expect(await caught(api.pods())).toMatchObject({kind: 'rate-limited', retryAfterMs: 3000});
		await sim.call('POST', '/__sim/faults', {body: {operation: 'graphql', status: 502}});
		expect((await caught(api.pods())).kind).toBe('server');
	});

	test('the pod list, read as it streams in, is what the service sent; a truncated or malformed one is an error, never a short list', async () => {
		// Utilisation and uptime move between two reads: the rest is compared whole, runtimes by their GPUs.
		const steady = ({runtime, ...rest}: PodRecord) => ({...rest, runtime: runtime && Object.keys(runtime), gpus: runtime?.gpus?.map(gpu => gpu.id)});
		const sent = (await gqlData(sim, documents.pods)).myself.pods as PodRecord[];
		expect((await api.pods()).map(pod => steady(pod))).toEqual(sent.map(pod => steady(pod)));
		expect((await api.podSummaries()).map(pod => pod.id)).toEqual(sent.map(pod => pod.id));
		await sim.call('POST', '/__sim/faults', {body: {kind: 'truncated', operation: 'graphql', count: 1}});
		expect(['network', 'timeout']).toContain((await caught(api.pods())).kind);
		await sim.call('POST', '/__sim/faults', {body: {kind: 'malformed', operation: 'graphql', count: 1}});
		expect(await caught(api.pods())).toMatchObject({kind: 'server', message: 'pods: the answer was not JSON'});
		expect(await api.pods()).toHaveLength(sent.length);
	});

	test('no service → network', async () => {
		const closedPools = new Pools({connectMs: 500, headersMs: 500, bodyMs: 500, keepAliveMs: 1000});
		const closed = createGraphqlApi({url: 'http://127.0.0.1:9/graphql', apiKey: sim.apiKey, pools: closedPools});
		expect((await caught(closed.endpoints())).kind).toBe('network');
		await closedPools.close();
	});
});

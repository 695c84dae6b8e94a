import {afterEach, describe, expect, test} from 'vitest';
import {closeRestSims, startRestSim} from './rest-client.js';

afterEach(closeRestSims);

const create = {name: 'v2-made', image: 'acme/worker:1', type: 'QUEUE', scaling: {type: 'QUEUE_DELAY', queueDelay: 4}, gpu: {pools: ['ADA_24'], count: 1}};

describe('v2 serverless endpoints', () => {
	test('the list is the account endpoints GraphQL shows (not the public models), each readable by id', async () => {
		const sim = await startRestSim();
		const {body} = await sim.rest('GET', '/v2/serverless');
		const graphql = await sim.call('POST', '/graphql', {body: {query: '{ myself { endpoints { id } } }'}});
		expect(body.endpoints.map((endpoint: {id: string}) => endpoint.id).sort()).toEqual(
			graphql.body.data.myself.endpoints.map((endpoint: {id: string}) => endpoint.id).sort(),
		);
		const one = await sim.rest('GET', `/v2/serverless/${body.endpoints[0].id}`);
		expect(one.body).toEqual(body.endpoints[0]);
		expect(one.body.requestUrls.health).toBe(`${sim.url}/v2/${one.body.id}/health`);
		expect((await sim.rest('GET', '/v2/serverless/black-forest-labs-flux-1-dev')).status).toBe(404);
	});

	test('create: 201, flashboot OFF when omitted, served by the job API at once; bad input 400/422', async () => {
		const sim = await startRestSim();
		const made = await sim.rest('POST', '/v2/serverless', {body: create});
		expect(made.status).toBe(201);
		expect(made.body).toMatchObject({
			name: 'v2-made',
			flashboot: 'OFF',
			workers: {min: 0, max: 3, idleTimeout: 10},
			timeout: 300_000,
			gpu: {pools: ['ADA_24']},
		});
		expect((await sim.call('GET', `/v2/${made.body.id}/health`)).status).toBe(200);
		const {type, ...untyped} = create;
		expect((await sim.rest('POST', '/v2/serverless', {body: untyped})).status).toBe(422);
		expect((await sim.rest('POST', '/v2/serverless', {body: {...create, gpu: {pools: ['NOPE_99']}}})).status).toBe(400);
		expect((await sim.rest('POST', '/v2/serverless', {body: {...create, flashboot: 'TURBO'}})).status).toBe(422);
		const priority = await sim.rest('POST', '/v2/serverless', {body: {...create, flashboot: 'PRIORITY_FLASHBOOT'}});
		expect(priority.body.flashboot).toBe('PRIORITY_FLASHBOOT');
	});

	test('PATCH changes only what is sent; gpu.pools clears excludedTypes unless restated; excludedTypes alone is 422', async () => {
		const sim = await startRestSim();
		const made = (await sim.rest('POST', '/v2/serverless', {body: {...create, gpu: {pools: ['ADA_24'], excludedTypes: ['NVIDIA L4']}, flashboot: 'FLASHBOOT'}}))
			.body;
		expect(made.gpu.excludedTypes).toEqual(['NVIDIA L4']);
		const scaled = await sim.rest('PATCH', `/v2/serverless/${made.id}`, {body: {workers: {max: 5}}});
		expect(scaled.body).toEqual({...made, workers: {...made.workers, max: 5}});
		const cuda = await sim.rest('PATCH', `/v2/serverless/${made.id}`, {body: {gpu: {allowedCudaVersions: ['12.8']}}});
		expect(cuda.body.gpu).toEqual({...made.gpu, allowedCudaVersions: ['12.8']});
		const repooled = await sim.rest('PATCH', `/v2/serverless/${made.id}`, {body: {gpu: {pools: ['ADA_24', 'AMPERE_24']}}});
		expect(repooled.body.gpu.excludedTypes).toBeUndefined();
		expect(repooled.body.flashboot).toBe('FLASHBOOT');
		expect((await sim.rest('PATCH', `/v2/serverless/${made.id}`, {body: {gpu: {excludedTypes: ['NVIDIA L4']}}})).status).toBe(422);
		expect((await sim.rest('PATCH', `/v2/serverless/${made.id}`, {body: {gpu: {pools: ['ADA_24'], excludedTypes: ['NVIDIA A40']}}})).status).toBe(400);
		const graphql = await sim.call('POST', '/graphql', {body: {query: `{ myself { endpoints { id workersMax gpuIds } } }`}});
		expect(graphql.body.data.myself.endpoints.find((endpoint: {id: string}) => endpoint.id === made.id)).toMatchObject({
			workersMax: 5,
			gpuIds: 'ADA_24,AMPERE_24',
		});
	});

	test('DELETE is 204 with no body, then 404, and the job API forgets it', async () => {
		const sim = await startRestSim();
		const made = (await sim.rest('POST', '/v2/serverless', {body: {...create, workers: {min: 1, max: 2}}})).body;
		expect((await sim.rest('DELETE', `/v2/serverless/${made.id}`)).status).toBe(204);
		expect((await sim.rest('GET', `/v2/serverless/${made.id}`)).status).toBe(404);
		expect((await sim.rest('DELETE', `/v2/serverless/${made.id}`)).status).toBe(404);
		expect((await sim.call('GET', `/v2/${made.id}/health`)).status).toBe(404);
	});
});

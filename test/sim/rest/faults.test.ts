import {afterEach, describe, expect, test} from 'vitest';
import {closeRestSims, startRestSim} from './rest-client.js';

afterEach(closeRestSims);

describe('faults and retirement reach v2', () => {
	test('a status fault answers problem+json; an edge fault an empty 429/403/502; operation v2:<resource> picks the resource', async () => {
		const sim = await startRestSim();
		await sim.call('POST', '/__sim/faults', {
			body: [
				{kind: 'status', status: 503, operation: 'v2:pods', count: 1},
				{kind: 'status', status: 429, retryAfter: 7, operation: 'v2', count: 1},
				{kind: 'edge', status: 429, operation: 'v2:catalog', count: 1},
				{kind: 'edge', status: 403, operation: 'v2', count: 1},
				{kind: 'edge', status: 502, operation: 'v2', count: 1},
			],
		});
		const unavailable = await sim.rest('GET', '/v2/pods', {unmetered: true});
		expect(unavailable.status).toBe(503);
		expect(unavailable.body).toMatchObject({title: 'Service Unavailable', status: 503});
		const storm = await sim.rest('GET', '/v2/serverless', {unmetered: true});
		expect(storm.status).toBe(429);
		expect(storm.headers['retry-after']).toBe('7');
		for (const status of [429, 403, 502]) {
			const edge = await sim.rest('GET', '/v2/catalog/gpus', {edge: true});
			expect(edge.status).toBe(status);
			expect(edge.body).toBe('');
			expect(edge.headers.ratelimit).toBeUndefined();
		}

		expect((await sim.rest('GET', '/v2/catalog/gpus')).status).toBe(200);
	});

	test('a reset drops the connection of a v2 request', async () => {
		const sim = await startRestSim();
		await sim.call('POST', '/__sim/faults', {body: {kind: 'reset', operation: 'v2:pods', count: 1}});
		await expect(sim.call('GET', '/v2/pods')).rejects.toThrow();
		expect((await sim.rest('GET', '/v2/pods')).status).toBe(200);
	});

	test('--graphql retired: GraphQL answers 410 Gone while v2 goes on', async () => {
		const sim = await startRestSim({graphql: 'retired'});
		const gone = await sim.call('POST', '/graphql', {body: {query: '{ myself { id } }'}});
		expect(gone.status).toBe(410);
		expect(gone.body.errors[0].extensions.code).toBe('GONE');
		expect((await sim.rest('GET', '/v2/pods')).status).toBe(200);
		const live = await startRestSim();
		expect((await live.call('POST', '/graphql', {body: {query: '{ myself { id } }'}})).status).toBe(200);
	});
});

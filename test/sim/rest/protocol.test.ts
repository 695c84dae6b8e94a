import {afterEach, describe, expect, test} from 'vitest';
import {closeRestSims, startRestSim} from './rest-client.js';

afterEach(closeRestSims);

describe('REST v2 beside the job API', () => {
	test('a request without a key, or with a bare one, is 401 problem+json; v2 takes only Bearer', async () => {
		const sim = await startRestSim();
		for (const options of [{key: null}, {bare: true}, {key: 'wrong'}] as const) {
			const reply = await sim.rest('GET', '/v2/pods', options);
			expect(reply.status).toBe(401);
			expect(reply.headers['content-type']).toBe('application/problem+json');
			expect(reply.body).toMatchObject({title: 'Unauthorized', status: 401});
			expect(reply.headers.ratelimit).toBeUndefined();
		}
	});

	test('an unknown route under a v2 resource is 404 problem+json', async () => {
		const sim = await startRestSim();
		const missing = await sim.call('GET', '/v2/pods/abc/nothing-here');
		expect(missing.headers['content-type']).toBe('application/problem+json');
		expect(missing.status).toBe(404);
		expect(missing.body.detail).toContain('/v2/pods/abc/nothing-here');
	});

	test('the job API keeps its own answers under /v2/<endpoint>', async () => {
		const sim = await startRestSim();
		const health = await sim.call('GET', '/v2/black-forest-labs-flux-1-schnell/health', {bare: true});
		expect(health.status).toBe(200);
		expect(health.body.workers).toBeDefined();
		const unknown = await sim.call('GET', '/v2/nope/health');
		expect(unknown.headers['content-type']).toBe('application/json');
	});
});

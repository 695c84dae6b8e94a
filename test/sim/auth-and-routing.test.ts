import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {startTestSim, type TestSim} from '../helpers/sim-client.js';

let sim: TestSim;

beforeAll(async () => {
	sim = await startTestSim({endpoints: [{id: 'echo', worker: 'echo', workersMin: 1, flashBoot: true}], speed: 20});
});

afterAll(async () => sim.close());

describe('authentication', () => {
	test('accepts "Bearer KEY" and a bare "KEY"', async () => {
		expect((await sim.call('GET', '/v2/echo/health')).status).toBe(200);
		expect((await sim.call('GET', '/v2/echo/health', {bare: true})).status).toBe(200);
	});

	test.each([
		['no key', null],
		['a wrong key', 'wrong-key'],
		['a key that only starts right', 'test-key-2'],
	])('answers 401 with a JSON error for %s', async (_, key) => {
		const reply = await sim.call('GET', '/v2/echo/health', {key});
		expect(reply.status).toBe(401);
		expect(typeof reply.body.error).toBe('string');
	});

	test('checks the key before revealing whether an endpoint exists', async () => {
		expect((await sim.call('GET', '/v2/nope/health', {key: 'wrong'})).status).toBe(401);
	});

	test('rejects other schemes such as Basic', async () => {
		const reply = await sim.call('GET', '/v2/echo/health', {key: `Basic ${Buffer.from('test-key').toString('base64')}`, bare: true});
		expect(reply.status).toBe(401);
	});

	test('does not take the key from the query string on the job API', async () => {
		expect((await sim.call('GET', '/v2/echo/health?api_key=test-key', {key: null})).status).toBe(401);
	});
});

describe('routing', () => {
	test('an unknown endpoint is 404 with a JSON error', async () => {
		const reply = await sim.call('POST', '/v2/missing-endpoint/run', {body: {input: {}}});
		expect(reply.status).toBe(404);
		expect(reply.body.error).toMatch(/missing-endpoint/);
	});

	test('an unknown job is 404 on every job route', async () => {
		for (const [method, route] of [
			['GET', 'status'],
			['POST', 'status'],
			['GET', 'status-sync'],
			['GET', 'stream'],
			['POST', 'stream'],
			['POST', 'cancel'],
			['POST', 'retry'],
		] as const) {
			const reply = await sim.call(method, `/v2/echo/${route}/00000000-0000-4000-8000-000000000000-u1`);
			expect(reply.status, `${method} ${route}`).toBe(404);
			expect(typeof reply.body.error).toBe('string');
		}
	});

	test('an unknown operation or a path outside the API is 404', async () => {
		expect((await sim.call('GET', '/v2/echo/explode')).status).toBe(404);
		expect((await sim.call('GET', '/v1/echo/health')).status).toBe(404);
		expect((await sim.call('GET', '/v2/echo/status')).status).toBe(404);
	});

	test('a wrong method is 405 with an Allow header', async () => {
		const reply = await sim.call('GET', '/v2/echo/run');
		expect(reply.status).toBe(405);
		expect(reply.headers.allow).toBe('POST');
		expect((await sim.call('POST', '/v2/echo/health')).status).toBe(405);
		expect((await sim.call('GET', '/v2/echo/purge-queue')).status).toBe(405);
	});

	test('a malformed path is a 400, not a crash', async () => {
		const reply = await sim.call('GET', '/v2/%E0%A4%A/health');
		expect(reply.status).toBe(400);
		expect((await sim.call('GET', '/v2/echo/health')).status).toBe(200);
	});
});

import {afterEach, describe, expect, test} from 'vitest';
import {closeRestSims, startRestSim} from './rest-client.js';

afterEach(closeRestSims);

describe('v2 rate limits over HTTP', () => {
	test('every authenticated answer carries the windows, errors too; 429 has Retry-After and counts nowhere', async () => {
		// Pinned to 12:00:00 of a day, so the requests share one minute window however slow the machine.
		const sim = await startRestSim({restQuota: {minute: 3, hour: 100, day: 1000}});
		const first = await sim.rest('GET', '/v2/pods/nope');
		expect(first.status).toBe(404);
		expect(first.headers['ratelimit-policy']).toBe('"minute";q=3;w=60, "hour";q=100;w=3600, "day";q=1000;w=86400');
		expect(first.headers.ratelimit).toMatch(/^"minute";r=2;t=(60|59), "hour";r=99;t=\d+, "day";r=999;t=\d+$/);
		await sim.rest('GET', '/v2/pods/nope');
		await sim.rest('GET', '/v2/pods/nope');
		const refused = await sim.rest('GET', '/v2/pods/nope');
		expect(refused.status).toBe(429);
		expect(refused.body).toMatchObject({title: 'Too Many Requests', status: 429, detail: 'rate limit exceeded for the minute window'});
		expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
		expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
		expect(refused.headers.ratelimit).toMatch(/^"minute";r=0;t=\d+, "hour";r=97;t=\d+, "day";r=997;t=\d+$/);
	});

	test('the job API and GraphQL do not spend the v2 budget', async () => {
		const sim = await startRestSim({restQuota: {minute: 5, hour: 100, day: 1000}});
		await sim.call('GET', '/v2/black-forest-labs-flux-1-schnell/health');
		await sim.call('POST', '/graphql', {body: {query: '{ myself { id } }'}});
		const reply = await sim.rest('GET', '/v2/pods/nope');
		expect(reply.headers.ratelimit).toMatch(/^"minute";r=4;/);
	});
});

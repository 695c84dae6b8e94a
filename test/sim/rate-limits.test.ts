import {afterEach, describe, expect, test} from 'vitest';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';

let sim: TestSim | undefined;
afterEach(async () => sim?.close());

// With --rate-limit-scale 0.01 the published table becomes: /run 10 per 10 s (2 concurrent),
// /runsync 20 (4), /status + /status-sync + /stream 20 (4), /cancel 1 (1), /purge-queue 1.
const scaled = {rateLimitScale: 0.01};

async function burst(count: number, send: () => Promise<{status: number}>): Promise<number[]> {
	const statuses: number[] = [];
	for (let index = 0; index < count; index++) {
		statuses.push((await send()).status);
	}

	return statuses;
}

const count = (statuses: number[], status: number) => statuses.filter(value => value === status).length;

describe('rate limits (sliding 10-second window, per key, endpoint and operation)', () => {
	test('/run: the 11th request in the window is 429 with Retry-After and a JSON error', async () => {
		sim = await startTestSim({...scaled, endpoints: [{id: 'a', workersMax: 0}]});
		const statuses = await burst(10, async () => sim!.call('POST', '/v2/a/run', {body: {input: {}}}));
		expect(count(statuses, 200)).toBe(10);
		const limited = await sim.call('POST', '/v2/a/run', {body: {input: {}}});
		expect(limited.status).toBe(429);
		expect(limited.body.error).toMatch(/10 requests per 10 seconds/);
		const retryAfter = Number(limited.headers['retry-after']);
		expect(Number.isInteger(retryAfter)).toBe(true);
		expect(retryAfter).toBeGreaterThanOrEqual(9);
		expect(retryAfter).toBeLessThanOrEqual(10);
	});

	test('a request sent after Retry-After seconds is accepted (the window slides)', async () => {
		sim = await startTestSim({...scaled, endpoints: [{id: 'a', workersMax: 0}]});
		await burst(10, async () => sim!.call('POST', '/v2/a/run', {body: {input: {}}}));
		const limited = await sim.call('POST', '/v2/a/run', {body: {input: {}}});
		expect(limited.status).toBe(429);
		await new Promise(resolve => setTimeout(resolve, Number(limited.headers['retry-after']) * 1000));
		expect((await sim.call('POST', '/v2/a/run', {body: {input: {}}})).status).toBe(200);
	}, 20_000);

	test("/status and /status-sync share one budget; /stream has its own (as the spec's table says); other operations and endpoints have theirs", async () => {
		sim = await startTestSim({
			...scaled,
			endpoints: [
				{id: 'a', workersMax: 0},
				{id: 'b', workersMax: 0},
			],
		});
		const id = await sim.run('a', {});
		const routes = ['status', 'status-sync'];
		const statuses = await burst(19, async () => sim!.call('GET', `/v2/a/status/${id}`));
		expect(count(statuses, 200)).toBe(19);
		expect((await sim.call('GET', `/v2/a/status-sync/${id}?wait=1000`)).status).toBe(200);
		for (const route of routes) {
			expect((await sim.call('GET', `/v2/a/${route}/${id}?wait=1000`)).status, route).toBe(429);
		}

		// The status group is spent; /stream is not.
		const streams = await burst(20, async () => sim!.call('GET', `/v2/a/stream/${id}`));
		expect(count(streams, 200)).toBe(20);
		expect((await sim.call('GET', `/v2/a/stream/${id}`)).status).toBe(429);
		expect((await sim.call('POST', '/v2/a/run', {body: {input: {}}})).status).toBe(200);
		const other = await sim.run('b', {});
		expect((await sim.status('b', other)).status).toBe(200);
	});

	test('the concurrency cap: a 5th simultaneous /runsync is 429 while 4 are held', async () => {
		sim = await startTestSim({...scaled, endpoints: [{id: 'a', workersMax: 0}]});
		const replies = await Promise.all(Array.from({length: 5}, async () => sim!.call('POST', '/v2/a/runsync?wait=1500', {body: {input: {}}})));
		const statuses = replies.map(reply => reply.status);
		expect(count(statuses, 200)).toBe(4);
		expect(count(statuses, 429)).toBe(1);
		expect(replies.find(reply => reply.status === 429)!.body.error).toMatch(/concurrent/);
		const stats = (await sim.call('GET', '/__sim/stats')).body.endpoints.a.runsync;
		expect(stats).toMatchObject({requests: 5, rateLimited: 1, peakConcurrency: 5});
	});

	test('/cancel and /purge-queue have their own small limits; /health has none', async () => {
		sim = await startTestSim({endpoints: [{id: 'a', workersMax: 0}]});
		const purges = await burst(3, async () => sim!.call('POST', '/v2/a/purge-queue'));
		expect(purges).toEqual([200, 200, 429]);
		await sim.close();
		sim = await startTestSim({...scaled, endpoints: [{id: 'a', workersMax: 0}]});
		const id = await sim.run('a', {});
		expect(await burst(2, async () => sim!.call('POST', `/v2/a/cancel/${id}`))).toEqual([200, 429]);
		const health = await burst(60, async () => sim!.call('GET', '/v2/a/health'));
		expect(count(health, 200)).toBe(60);
	});

	test('the dynamic rule: limit = max(base, running workers × allowance)', async () => {
		// 10 running workers × allowance 300 × scale 0.01 = 30 per window, above the base of 10.
		sim = await startTestSim({...scaled, workerAllowance: 300, speed: 20, endpoints: [{id: 'a', workersMin: 10, workersMax: 10, flashBoot: true}]});
		await waitFor(async () => (await sim!.health('a')).workers.idle === 10);
		const first = await burst(10, async () => sim!.call('POST', '/v2/a/run', {body: {input: {delay_ms: 600_000}}}));
		expect(count(first, 200)).toBe(10);
		await waitFor(async () => (await sim!.health('a')).workers.running === 10);
		const more = await burst(21, async () => sim!.call('POST', '/v2/a/run', {body: {input: {delay_ms: 600_000}}}));
		expect(count(more, 200)).toBe(20);
		expect(more.at(-1)).toBe(429);
	});

	test('the queue guard: /run is 429 once the queue is over 50 and over workersMax × 500', async () => {
		sim = await startTestSim({endpoints: [{id: 'a', workersMin: 0, workersMax: 0}]});
		const statuses = await burst(52, async () => sim!.call('POST', '/v2/a/run', {body: {input: {}}}));
		expect(count(statuses, 200)).toBe(51);
		expect(statuses.at(-1)).toBe(429);
		expect((await sim.health('a')).jobs.inQueue).toBe(51);
	});

	test('/__sim/stats reports requests, 429s, the peak window and peak concurrency per endpoint and operation', async () => {
		sim = await startTestSim({...scaled, endpoints: [{id: 'a', workersMax: 0}]});
		await burst(12, async () => sim!.call('POST', '/v2/a/run', {body: {input: {}}}));
		await burst(3, async () => sim!.call('GET', '/v2/a/health'));
		const stats = (await sim.call('GET', '/__sim/stats')).body.endpoints.a;
		expect(stats.run).toEqual({requests: 12, rateLimited: 2, peakWindow: 12, peakConcurrency: 1});
		expect(stats.health).toMatchObject({requests: 3, rateLimited: 0});
		expect((await sim.call('GET', '/__sim/stats', {key: 'wrong'})).status).toBe(401);
		await sim.call('POST', '/__sim/stats/reset');
		expect((await sim.call('GET', '/__sim/stats')).body.endpoints).toEqual({});
	});
});

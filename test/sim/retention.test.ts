import {afterEach, describe, expect, test} from 'vitest';
import {startTestSim, waitFor, waitForStatus, type TestSim} from '../helpers/sim-client.js';

let sim: TestSim | undefined;
afterEach(async () => sim?.close());

const jobsHeld = async (sim: TestSim, id: string) => {
	const {body} = await sim.call('GET', '/__sim/endpoints');
	return body.endpoints.find((endpoint: {id: string}) => endpoint.id === id).jobs as number;
};

describe('retention and TTL (simulated time)', () => {
	test('a /run result lives 30 simulated minutes after completion, then is 404 and dropped from memory', async () => {
		// Speed 600: 30 simulated minutes are 3 real seconds.
		sim = await startTestSim({speed: 600, endpoints: [{id: 'echo', worker: 'echo', workersMin: 1, flashBoot: true}]});
		await waitFor(async () => (await sim!.health('echo')).workers.idle === 1);
		const id = await sim.run('echo', {delay_ms: 10});
		await waitForStatus(sim, 'echo', id, 'COMPLETED');
		const completedAt = Date.now();
		await new Promise(resolve => setTimeout(resolve, 2000));
		expect((await sim.status('echo', id)).body.status).toBe('COMPLETED');
		await waitFor(async () => (await sim!.status('echo', id)).status === 404, 5000, 50);
		expect(Date.now() - completedAt).toBeGreaterThan(2500);
		expect(await jobsHeld(sim, 'echo')).toBe(0);
	});

	test('a /runsync result lives 1 minute by default, longer with wait (at most 5)', async () => {
		// Speed 60: one simulated minute is one real second.
		sim = await startTestSim({speed: 60, endpoints: [{id: 'echo', worker: 'echo', workersMin: 1, flashBoot: true}]});
		await waitFor(async () => (await sim!.health('echo')).workers.idle === 1);
		const short = (await sim.call('POST', '/v2/echo/runsync', {body: {input: {delay_ms: 10}}})).body.id;
		const long = (await sim.call('POST', '/v2/echo/runsync?wait=180000', {body: {input: {delay_ms: 10}}})).body.id;
		await new Promise(resolve => setTimeout(resolve, 700));
		expect((await sim.status('echo', short)).status).toBe(200);
		await waitFor(async () => (await sim!.status('echo', short)).status === 404, 3000, 50);
		expect((await sim.status('echo', long)).status).toBe(200);
		await waitFor(async () => (await sim!.status('echo', long)).status === 404, 5000, 50);
	});

	test('policy.ttl covers queue plus execution: past it the job is gone, even running', async () => {
		// Speed 20: the 10-second minimum ttl is half a real second.
		sim = await startTestSim({
			speed: 20,
			endpoints: [
				{id: 'queued', workersMin: 0, workersMax: 0},
				{id: 'busy', workersMin: 1, workersMax: 1, flashBoot: true},
			],
		});
		await waitFor(async () => (await sim!.health('busy')).workers.idle === 1);
		const queued = await sim.run('queued', {}, {policy: {ttl: 10_000}});
		const running = await sim.run('busy', {delay_ms: 60_000}, {policy: {ttl: 10_000}});
		await waitForStatus(sim, 'busy', running, 'IN_PROGRESS');
		await waitFor(async () => (await sim!.status('queued', queued)).status === 404, 3000);
		await waitFor(async () => (await sim!.status('busy', running)).status === 404, 3000);
		const health = await sim.health('busy');
		expect(health.jobs.inProgress).toBe(0);
		expect(health.workers.idle).toBe(1);
	});

	test('/status?ttl= shortens how long the job is kept', async () => {
		sim = await startTestSim({speed: 20, endpoints: [{id: 'echo', workersMin: 1, flashBoot: true}]});
		await waitFor(async () => (await sim!.health('echo')).workers.idle === 1);
		const id = await sim.run('echo', {delay_ms: 10});
		await waitForStatus(sim, 'echo', id, 'COMPLETED');
		expect((await sim.call('GET', `/v2/echo/status/${id}?ttl=6000`)).body.status).toBe('COMPLETED');
		await waitFor(async () => (await sim!.status('echo', id)).status === 404, 2000);
	});

	test('an expired FAILED job cannot be retried', async () => {
		sim = await startTestSim({speed: 600, endpoints: [{id: 'echo', workersMin: 1, flashBoot: true}]});
		await waitFor(async () => (await sim!.health('echo')).workers.idle === 1);
		const id = await sim.run('echo', {delay_ms: 10, error: 'nope'});
		await waitForStatus(sim, 'echo', id, 'FAILED');
		await waitFor(async () => (await sim!.status('echo', id)).status === 404, 6000, 50);
		expect((await sim.call('POST', `/v2/echo/retry/${id}`)).status).toBe(404);
	});
});

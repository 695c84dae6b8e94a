import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {startTestSim, waitFor, waitForStatus, type TestSim} from '../helpers/sim-client.js';
import {startWebhookReceiver} from '../helpers/webhook-receiver.js';

let sim: TestSim;

// Speed 50: the 10 simulated seconds between attempts are 200 real milliseconds.
beforeAll(async () => {
	sim = await startTestSim({speed: 50, endpoints: [{id: 'echo', workersMin: 2, workersMax: 2, flashBoot: true}]});
	await waitFor(async () => (await sim.health('echo')).workers.idle === 2);
});

afterAll(async () => sim.close());

describe('webhooks', () => {
	test('a COMPLETED job is POSTed once: the /status object plus input and webhook', async () => {
		const receiver = await startWebhookReceiver([200]);
		const id = await sim.run('echo', {delay_ms: 10, word: 'hi'}, {webhook: receiver.url, s3Config: {accessId: 'secret-id'}});
		const done = await waitForStatus(sim, 'echo', id, 'COMPLETED');
		await waitFor(() => receiver.deliveries.length === 1);
		await new Promise(resolve => setTimeout(resolve, 600));
		expect(receiver.deliveries).toHaveLength(1);
		expect(receiver.deliveries[0]!.body).toEqual({...done, input: {delay_ms: 10, word: 'hi'}, webhook: receiver.url});
		expect(JSON.stringify(receiver.deliveries[0]!.body)).not.toMatch(/secret-id/);
		await receiver.close();
	});

	test('FAILED and CANCELLED jobs are delivered too', async () => {
		const receiver = await startWebhookReceiver([204]);
		const failed = await sim.run('echo', {delay_ms: 10, error: 'bad input'}, {webhook: receiver.url});
		const cancelled = await sim.run('echo', {delay_ms: 60_000}, {webhook: receiver.url});
		await sim.call('POST', `/v2/echo/cancel/${cancelled}`);
		await waitFor(() => receiver.deliveries.length === 2);
		const byId = Object.fromEntries(receiver.deliveries.map(delivery => [delivery.body.id, delivery.body]));
		expect(byId[failed]).toMatchObject({status: 'FAILED', error: 'bad input'});
		expect(byId[cancelled]).toMatchObject({status: 'CANCELLED'});
		await receiver.close();
	});

	test('a failing receiver gets 3 attempts in all, 10 simulated seconds apart, and the job is unchanged', async () => {
		const receiver = await startWebhookReceiver([500]);
		const id = await sim.run('echo', {delay_ms: 10}, {webhook: receiver.url});
		const done = await waitForStatus(sim, 'echo', id, 'COMPLETED');
		await waitFor(() => receiver.deliveries.length === 3, 5000);
		await new Promise(resolve => setTimeout(resolve, 600));
		expect(receiver.deliveries).toHaveLength(3);
		const gaps = [receiver.deliveries[1]!.at - receiver.deliveries[0]!.at, receiver.deliveries[2]!.at - receiver.deliveries[1]!.at];
		for (const gap of gaps) {
			// 10 simulated seconds at speed 50 = 200 ms real: not sooner (how much later says only how busy the machine is).
			expect(gap).toBeGreaterThanOrEqual(180);
		}

		expect((await sim.status('echo', id)).body).toEqual(done);
		await receiver.close();
	});

	test('a receiver that recovers stops the retries', async () => {
		const receiver = await startWebhookReceiver([503, 200]);
		await sim.run('echo', {delay_ms: 10}, {webhook: receiver.url});
		await waitFor(() => receiver.deliveries.length === 2, 5000);
		await new Promise(resolve => setTimeout(resolve, 600));
		expect(receiver.deliveries).toHaveLength(2);
		await receiver.close();
	});

	test('an unreachable receiver neither blocks nor changes the job', async () => {
		const receiver = await startWebhookReceiver();
		const deadUrl = receiver.url;
		await receiver.close();
		const id = await sim.run('echo', {delay_ms: 10}, {webhook: deadUrl});
		const done = await waitForStatus(sim, 'echo', id, 'COMPLETED');
		await new Promise(resolve => setTimeout(resolve, 700));
		expect((await sim.status('echo', id)).body).toEqual(done);
	});
});

import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {parseAlertRules} from '../../source/config/alert-rules.js';
import type {Engine} from '../../source/engine/create-engine.js';
import {defaultCadence} from '../../source/poll/cadence.js';
import {engineFor} from '../helpers/engine.js';
import {gqlData} from '../helpers/graphql-client.js';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';
import {startWebhookReceiver} from '../helpers/webhook-receiver.js';

let sim: TestSim;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let engine: Engine;
let endpointId: string;

beforeAll(async () => {
	sim = await startTestSim();
	receiver = await startWebhookReceiver();
	const endpoints = (await gqlData(sim, '{ myself { endpoints { id name } } }')).myself.endpoints as Array<{id: string; name: string}>;
	endpointId = endpoints.find(endpoint => endpoint.name === 'smoke-test-echo')!.id;
	const rules = parseAlertRules(
		`[webhook]\nurl = "${receiver.url}"\n\n[[rule]]\nname = "backlog"\nkind = "queue"\nendpoint = "smoke-test-*"\nover = 3\nfor = "1s"\n\n[[rule]]\nname = "failing"\nkind = "failure-rate"\nendpoint = "${endpointId}"\nover = 20\nwindow = "20s"\n`,
		'alerts.toml',
	);
	engine = await engineFor(sim, {
		allVisible: true,
		cadence: {...defaultCadence, healthMs: 250, healthHiddenMs: 250, healthStalestMs: 250},
		budget: {share: 1, healthPerWindow: 1000},
		alerts: {rules},
	});
	engine.start();
	await waitFor(() => engine.store.getState().endpoints.byId[endpointId]?.health);
});

afterAll(async () => {
	await engine.close();
	await receiver.close();
	await sim.close();
});

const firing = () => engine.store.getState().alerts.map(alert => alert.rule);

describe('alert rules against the simulator', () => {
	test('a queue backs up under load: fires after its time, holds through a health outage, resolves when purged; one post each', async () => {
		// The endpoint has one worker: a long job holds it, the rest queue.
		const blocker = await sim.run(endpointId, {delay_ms: 600_000});
		for (let index = 0; index < 6; index++) {
			await sim.run(endpointId, {delay_ms: 10});
		}

		const queuedAt = Date.now();
		await waitFor(() => firing().includes('backlog'), 10_000);
		expect(Date.now() - queuedAt).toBeGreaterThanOrEqual(1000);
		await waitFor(() => receiver.deliveries.length === 1);
		expect(receiver.deliveries[0]!.body).toMatchObject({podtop: {state: 'firing', rule: 'backlog', subject: endpointId, subjectName: 'smoke-test-echo'}});

		// /health fails for a while: the data goes stale, and the alert neither resolves nor fires again.
		await sim.call('POST', '/__sim/faults', {body: {kind: 'status', status: 503, operation: 'health', endpoint: endpointId, share: 1}});
		await waitFor(() => engine.store.getState().endpoints.byId[endpointId]?.healthError, 5000);
		await new Promise(resolve => setTimeout(resolve, 1500));
		expect(firing()).toContain('backlog');
		await sim.call('DELETE', '/__sim/faults');

		await sim.call('POST', `/v2/${endpointId}/purge-queue`);
		await waitFor(() => !firing().includes('backlog'), 10_000);
		await waitFor(() => receiver.deliveries.length === 2);
		expect(receiver.deliveries.map(delivery => `${delivery.body.podtop.state} ${delivery.body.podtop.rule}`)).toEqual(['firing backlog', 'resolved backlog']);
		await sim.call('POST', `/v2/${endpointId}/cancel/${blocker}`);
	}, 40_000);

	test('jobs failing: the failure rate over its window fires', async () => {
		for (let index = 0; index < 5; index++) {
			await sim.run(endpointId, {delay_ms: 10, error: 'boom'});
		}

		await waitFor(() => firing().includes('failing'), 20_000);
		const alert = engine.store.getState().alerts.find(each => each.rule === 'failing')!;
		expect(alert.message).toMatch(/^\d+\.\d % of jobs failed in 20s \(over 20 %\)$/);
		await waitFor(() => receiver.deliveries.some(delivery => delivery.body.podtop.rule === 'failing'));
	}, 30_000);
});

import {afterAll, expect, test} from 'vitest';
import type {Engine} from '../../source/engine/create-engine.js';
import {defaultCadence} from '../../source/poll/cadence.js';
// GraphQL's partial reads (pods by id); REST v2 reads every pod in one list, so these run over GraphQL.
import {engineFor, simStats} from '../helpers/engine.js';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';

let sim: TestSim | undefined;
let engine: Engine | undefined;
afterAll(async () => {
	await engine?.close();
	await sim?.close();
});

test('a long pod list is fetched whole less often; the rows on screen are read by id at the pane cadence, over real HTTP', async () => {
	sim = await startTestSim({podCount: 60, graphqlRate: 50});
	// 60 pods at 100 ms a pod: the whole list every 6 s; the rows on screen every second.
	engine = await engineFor(sim, {
		poll: ['pods'],
		cadence: {...defaultCadence, podsMs: 1000, podListMsPerPod: 100},
		budget: {graphqlPerWindow: 50},
		managementApi: 'graphql',
	});
	engine.focus('pods');
	engine.start();
	await waitFor(() => engine!.store.getState().pods.order.length === 60);
	const {order} = engine.store.getState().pods;
	const onScreen = order.slice(0, 3);
	engine.showing('pods', onScreen);
	await sim.call('POST', '/__sim/stats/reset');
	const before = new Map(order.map(id => [id, engine!.store.getState().pods.byId[id]]));
	await new Promise(resolve => setTimeout(resolve, 4500));
	const graphql = (await simStats(sim)).graphql ?? {};
	expect(graphql['operation:PodtopPodsById']?.requests).toBeGreaterThanOrEqual(3);
	expect(graphql['operation:PodtopPodsById']?.requests).toBeLessThanOrEqual(6);
	expect(graphql['operation:PodtopPods']?.requests ?? 0).toBeLessThanOrEqual(1);
	const {pods} = engine.store.getState();
	// The list keeps its order and every pod; the rows on screen were read again (their uptime moved).
	expect(pods.order).toEqual(order);
	for (const id of onScreen) {
		expect(pods.byId[id], id).not.toBe(before.get(id));
	}
}, 30_000);

test('the rows on screen are not read apart when the list is short enough to fetch whole at the cadence', async () => {
	await engine?.close();
	await sim?.close();
	sim = await startTestSim({podCount: 6, graphqlRate: 50});
	engine = await engineFor(sim, {
		poll: ['pods'],
		cadence: {...defaultCadence, podsMs: 1000, podListMsPerPod: 100},
		budget: {graphqlPerWindow: 50},
		managementApi: 'graphql',
	});
	engine.focus('pods');
	engine.start();
	await waitFor(() => engine!.store.getState().pods.order.length === 6);
	engine.showing('pods', engine.store.getState().pods.order.slice(0, 3));
	await sim.call('POST', '/__sim/stats/reset');
	await new Promise(resolve => setTimeout(resolve, 3500));
	const graphql = (await simStats(sim)).graphql ?? {};
	expect(graphql['operation:PodtopPodsById']?.requests ?? 0).toBe(0);
	expect(graphql['operation:PodtopPods']?.requests).toBeGreaterThanOrEqual(3);
}, 30_000);

test('over REST v2, which reads no pod apart from the list, the rows on screen come with the list at its cadence: not the whole list every second', async () => {
	await engine?.close();
	await sim?.close();
	sim = await startTestSim({podCount: 60, restQuota: {minute: 10_000, hour: 100_000, day: 1_000_000}});
	// 60 pods at 100 ms a pod: the whole list every 6 s. Reading the 3 rows on screen every second would read all 60 each time.
	engine = await engineFor(sim, {poll: ['pods'], cadence: {...defaultCadence, podsMs: 1000, podListMsPerPod: 100}, managementApi: 'v2'});
	engine.focus('pods');
	engine.start();
	await waitFor(() => engine!.store.getState().pods.order.length === 60);
	engine.showing('pods', engine.store.getState().pods.order.slice(0, 3));
	await sim.call('POST', '/__sim/stats/reset');
	await new Promise(resolve => setTimeout(resolve, 4500));
	const rest = (await simStats(sim)).rest ?? {};
	expect(rest['GET /pods']?.requests ?? 0).toBeLessThanOrEqual(1);
}, 30_000);

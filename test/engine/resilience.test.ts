import {afterEach, describe, expect, test} from 'vitest';
import {createGraphqlApi} from '../../source/api/graphql-api.js';
import {createCompatApi} from '../../source/api/compat-api.js';
import {createJobApi} from '../../source/api/job-api.js';
import {Pools} from '../../source/api/pools.js';
import type {Engine} from '../../source/engine/create-engine.js';
import {createScheduledApi} from '../../source/poll/scheduled-api.js';
import {Scheduler} from '../../source/poll/scheduler.js';
import {defaultCadence} from '../../source/poll/cadence.js';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';
import {engineFor, simStats} from '../helpers/engine.js';

let sim: TestSim | undefined;
let engine: Engine | undefined;
afterEach(async () => {
	await engine?.close();
	await sim?.close();
	engine = undefined;
	sim = undefined;
});

describe('the engine against a misbehaving service', () => {
	test('an injected 429 with Retry-After is honoured before the read is tried again', async () => {
		sim = await startTestSim({endpoints: [{id: 'e', workersMin: 0}]});
		const pools = new Pools();
		const scheduler = new Scheduler();
		const api = createScheduledApi({
			jobApi: createJobApi({baseUrl: `${sim.url}/v2`, apiKey: sim.apiKey, pools}),
			managementApi: createGraphqlApi({url: `${sim.url}/graphql`, apiKey: sim.apiKey, pools}),
			compatApi: createCompatApi({baseUrl: `${sim.url}/v2`, apiKey: sim.apiKey, pools}),
			scheduler,
		});
		await sim.call('POST', '/__sim/faults', {body: {operation: 'health', status: 429, retryAfter: 2}});
		const started = performance.now();
		const health = await api.health('e', 'visible');
		expect(performance.now() - started).toBeGreaterThanOrEqual(1990);
		expect(health.workers).toBeDefined();
		expect((await simStats(sim)).e!.health!.requests).toBe(2);
		expect(scheduler.snapshot()['e:health']).toBeDefined();
		scheduler.stop();
		await pools.close();
	});

	test('a failed /run is not sent again: a 5xx may have happened, a 429 was refused', async () => {
		sim = await startTestSim({endpoints: [{id: 'e', workersMin: 0}]});
		engine = await engineFor(sim);
		for (const [status, outcome] of [
			[500, 'ambiguous'],
			[503, 'ambiguous'],
			[429, 'refused'],
		] as const) {
			await sim.call('POST', '/__sim/stats/reset');
			await sim.call('POST', '/__sim/faults', {body: {operation: 'run', status, retryAfter: status === 429 ? 1 : undefined}});
			const result = await engine.perform('job.submit', {endpointId: 'e'}, {request: {input: {}}});
			expect(result.outcome, String(status)).toBe(outcome);
			expect(result.error).toMatchObject({status});
			if (outcome === 'ambiguous') {
				expect(result.message).toMatch(/^may have happened: submit a job to e .*not sent again/);
			}

			await new Promise(resolve => setTimeout(resolve, 1500));
			expect((await simStats(sim)).e!.run!.requests, String(status)).toBe(1);
		}
	});

	test('a timed-out /run is not sent again either', async () => {
		sim = await startTestSim({endpoints: [{id: 'e', workersMin: 0}]});
		const pools = new Pools({connectMs: 500, headersMs: 300, bodyMs: 300, keepAliveMs: 10_000});
		const scheduler = new Scheduler();
		const api = createScheduledApi({
			jobApi: createJobApi({baseUrl: `${sim.url}/v2`, apiKey: sim.apiKey, pools}),
			managementApi: createGraphqlApi({url: `${sim.url}/graphql`, apiKey: sim.apiKey, pools}),
			compatApi: createCompatApi({baseUrl: `${sim.url}/v2`, apiKey: sim.apiKey, pools}),
			scheduler,
		});
		await sim.call('POST', '/__sim/faults', {body: {operation: 'run', status: 200, delayMs: 1000}});
		await expect(api.run('e', {input: {}})).rejects.toMatchObject({kind: 'timeout'});
		await new Promise(resolve => setTimeout(resolve, 1500));
		expect((await simStats(sim)).e!.run!.requests).toBe(1);
		scheduler.stop();
		await pools.close();
	});

	test('data is marked stale by the first poll that fails (with its one retry), and fresh again by the first that succeeds', async () => {
		sim = await startTestSim({load: false, endpoints: [{id: 'e', workersMin: 1, flashBoot: true}]});
		// Two seconds between polls: room for the test to read the simulator's count before the next one.
		const cadence = {...defaultCadence, healthMs: 2000, podsMs: 2000, endpointsMs: 2000};
		// GraphQL's own budget must allow the cadence asked of it (the default allows one request a second).
		engine = await engineFor(sim, {cadence, budget: {graphqlPerWindow: 50}});
		engine.start();
		const state = () => engine!.store.getState();
		const healthRequests = async () => (await simStats(sim!)).e?.health?.requests ?? 0;
		await waitFor(() => state().connection.jobApi.lastSuccessAt !== undefined && state().connection.graphql.lastSuccessAt !== undefined);

		// Counted in requests, not seconds: a busy host stretches the polls, not their number.
		/** The simulator's count of /health requests when `test` first holds of the store. */
		const healthRequestsWhen = async (test: () => boolean) =>
			new Promise<number>((resolve, reject) => {
				const check = () => {
					if (test()) {
						unsubscribe();
						healthRequests().then(resolve, reject);
					}
				};

				const unsubscribe = engine!.store.subscribe(check);
				check();
			});

		// Every request reset, as when the service goes away.
		const wentAway = await healthRequests();
		await sim.call('POST', '/__sim/faults', {body: {kind: 'reset', share: 1}});
		const stale = await healthRequestsWhen(() => state().connection.jobApi.staleSince !== undefined);
		// At most the poll in flight when it went away, then one failing poll and its retry.
		expect(stale - wentAway).toBeGreaterThanOrEqual(2);
		expect(stale - wentAway).toBeLessThanOrEqual(3);
		await waitFor(() => state().connection.graphql.staleSince !== undefined, 30_000, 10);
		expect(state().endpoints.byId.e!.healthError).toMatch(/network/);

		const cameBack = await healthRequests();
		await sim.call('DELETE', '/__sim/faults');
		const fresh = await healthRequestsWhen(() => state().connection.jobApi.staleSince === undefined);
		// At most the retry of a poll in flight, then the first poll that succeeds.
		expect(fresh - cameBack).toBeGreaterThanOrEqual(1);
		expect(fresh - cameBack).toBeLessThanOrEqual(2);
		await waitFor(() => state().connection.graphql.staleSince === undefined, 30_000, 10);
		expect(state().endpoints.byId.e!.healthError).toBeUndefined();
	});
});

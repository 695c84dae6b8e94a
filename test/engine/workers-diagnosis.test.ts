import {describe, expect, test} from 'vitest';
import type {Engine} from '../../source/engine/create-engine.js';
import {defaultCadence} from '../../source/poll/cadence.js';
import {endpointDiagnosis} from '../../source/store/endpoint-diagnosis.js';
import {closedAfterEach, engineFor} from '../helpers/engine.js';
import {startTestSim, waitFor} from '../helpers/sim-client.js';

const running = closedAfterEach();

const fast = {...defaultCadence, healthMs: 300, workersOpenMs: 300, workersQueuedMs: 600, releasesMs: 2000};
const roomy = {restQuota: {minute: 100_000, hour: 1_000_000, day: 10_000_000}};

/** Waits until the diagnosis of `endpointId` reads a crash loop; returns what the store held then. */
async function crashLoopSeen(engine: Engine, endpointId: string) {
	return waitFor(
		() => {
			const state = engine.store.getState();
			const diagnosis = endpointDiagnosis(state, endpointId, Date.now());
			return diagnosis?.findings[0]?.kind === 'crash-loop' ? {state, diagnosis} : undefined;
		},
		30_000,
		50,
	);
}

describe('workers and their diagnosis, over real HTTP', () => {
	test('the crash-loop fault reads "crash loop" although its worker shows RUNNING or THROTTLED and unhealthy 0', async () => {
		const id = 'crashyendpoint1';
		const sim = await startTestSim({
			speed: 20,
			...roomy,
			endpoints: [{id, worker: 'echo', workersMin: 1, workersMax: 1, gpuIds: 'ADA_24'}],
			faults: [{kind: 'crash-loop', endpoint: id, cause: 'oom'}],
		});
		running.sim = sim;
		const engine = await engineFor(sim, {poll: ['endpoints', 'gpus', 'workers'], allVisible: true, cadence: fast});
		running.engine = engine;
		engine.start();
		await sim.run(id, {delay_ms: 10});
		const stop = engine.watchEndpoint(id);
		const {state, diagnosis} = await crashLoopSeen(engine, id);
		stop();
		const {list} = state.workers.byEndpoint[id]!;
		expect(list.workers.length).toBeGreaterThan(0);
		for (const worker of list.workers) {
			expect(['RUNNING', 'THROTTLED']).toContain(worker.status);
		}

		expect(state.endpoints.byId[id]!.health!.workers.unhealthy).toBe(0);
		expect(diagnosis.findings[0]!.text).toMatch(/^crash loop: .*(restarted|gone after|none served)/);
		expect(diagnosis.findings[0]!.text).toContain('unhealthy 0');
		expect(state.workers.rollouts[id]).toMatchObject({endpointVersion: 0, releases: [{version: 0}]});
	}, 60_000);

	test('a THROTTLED worker reads "no capacity" with the stock of its pools\' GPU types in each of its data centers, from the catalog the GPUs pane reads', async () => {
		const id = 'throttledendpoint1';
		const centers = ['US-CA-2', 'EU-RO-1'];
		// At speed 1 the seeded fleet's fourth worker waits THROTTLED for 5 s or more.
		const sim = await startTestSim({
			speed: 1,
			startAt: Date.UTC(2026, 11, 1, 12),
			...roomy,
			endpoints: [{id, worker: 'echo', workersMin: 4, workersMax: 4, gpuIds: 'ADA_24', dataCenterIds: centers}],
		});
		running.sim = sim;
		const engine = await engineFor(sim, {poll: ['endpoints', 'gpus', 'workers'], allVisible: true, cadence: fast});
		running.engine = engine;
		engine.start();
		const stop = engine.watchEndpoint(id);
		const {diagnosis, state} = await waitFor(
			() => {
				const now = engine.store.getState();
				const found = endpointDiagnosis(now, id, Date.now());
				return found?.findings.some(finding => finding.kind === 'no-capacity') && Object.keys(now.gpus.byId).length > 0
					? {diagnosis: found, state: now}
					: undefined;
			},
			30_000,
			50,
		);
		stop();
		const {text} = diagnosis.findings.find(finding => finding.kind === 'no-capacity')!;
		expect(text).toMatch(
			/^no capacity: \d+ workers? THROTTLED, waiting for a GPU; (none free in any of its 2 data centers|free in [12] of its 2 data centers); stock of ADA_24 in US-CA-2, EU-RO-1: /,
		);
		// Each of the pool's types, in each of the endpoint's data centers: the data centers the catalog says offer it, the others none.
		const catalog = async (cloud: string) =>
			(await sim.call('GET', `/v2/catalog/gpus?include=AVAILABILITY&product=POD&cloud=${cloud}`)).body as {
				gpus: Array<{id: string; name: string; pool?: string; dataCenters?: Array<{id: string}>}>;
			};
		const [secure, community] = await Promise.all([catalog('SECURE'), catalog('COMMUNITY')]);
		const pool = [...secure.gpus, ...community.gpus].filter(type => type.pool === 'ADA_24');
		expect(pool.length).toBeGreaterThan(0);
		for (const type of new Map(pool.map(each => [each.id, each])).values()) {
			const offering = new Set(pool.filter(each => each.id === type.id).flatMap(each => each.dataCenters?.map(center => center.id) ?? []));
			const {record} = state.gpus.byId[type.id]!;
			expect(Object.keys(record.dataCenterStock ?? {}).toSorted()).toEqual([...offering].toSorted());
			const figures = centers.map(center => `${center} ${offering.has(center) ? '(High|Medium|Low|None)' : 'None'}`).join(', ');
			expect(text).toMatch(new RegExp(String.raw`${type.name} (High|Medium|Low|None|Unknown) \(${figures}\)`));
		}
	}, 60_000);

	test("the demo's llava-next-34b reads crash loop; an endpoint neither open nor waiting is let go", async () => {
		const sim = await startTestSim({speed: 20, load: true, ...roomy});
		running.sim = sim;
		const engine = await engineFor(sim, {poll: ['endpoints', 'gpus', 'workers'], allVisible: true, cadence: fast});
		running.engine = engine;
		engine.start();
		const llava = await waitFor(() =>
			engine.store.getState().endpoints.order.find(each => engine.store.getState().endpoints.byId[each]!.record.name === 'llava-next-34b'),
		);
		const {diagnosis} = await crashLoopSeen(engine, llava);
		expect(diagnosis.queue).toBeGreaterThan(0);
		const state = engine.store.getState();
		for (const id of Object.keys(state.workers.byEndpoint)) {
			expect(state.endpoints.byId[id]!.health!.jobs.inQueue, id).toBeGreaterThan(0);
		}
	}, 60_000);

	test('over GraphQL no worker is asked for, and the store says why', async () => {
		const sim = await startTestSim({endpoints: [{id: 'plainendpoint01', workersMin: 1, workersMax: 1}]});
		running.sim = sim;
		const engine = await engineFor(sim, {managementApi: 'graphql', poll: ['endpoints', 'workers'], allVisible: true, cadence: fast});
		running.engine = engine;
		engine.start();
		engine.watchEndpoint('plainendpoint01');
		const reason = await waitFor(() => engine.store.getState().workers.unavailable);
		expect(reason).toBe('workers are published by REST v2 only: GraphQL has none');
		expect(engine.store.getState().workers.byEndpoint).toEqual({});
	}, 30_000);
});

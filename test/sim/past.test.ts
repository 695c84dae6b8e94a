import {executeSync, parse} from 'graphql';
import {afterEach, describe, expect, test} from 'vitest';
import {createGraphqlApi} from '../../source/api/graphql-api.js';
import {documents} from '../../source/api/graphql-documents.js';
import {createJobApi} from '../../source/api/job-api.js';
import {Pools} from '../../source/api/pools.js';
import {SimClock} from '../../source/sim/clock.js';
import {compileProjection} from '../../source/sim/graphql/project.js';
import {createRootValue} from '../../source/sim/graphql/resolvers.js';
import {schema} from '../../source/sim/graphql/schema.js';
import {Simulator} from '../../source/sim/simulator.js';
import {startTestSim, type TestSim} from '../helpers/sim-client.js';

const minute = 60_000;
const hour = 60 * minute;
/** A fixed present, so a seed's past is the same from run to run. */
const startAt = Date.parse('2026-11-20T09:00:00Z');

let sims: TestSim[] = [];
afterEach(async () => {
	await Promise.all(sims.map(async sim => sim.close()));
	sims = [];
});

async function pastSim(options: Parameters<typeof startTestSim>[0]): Promise<TestSim> {
	const sim = await startTestSim({load: true, ...options});
	sims.push(sim);
	return sim;
}

/** A value as it goes over the wire (graphql-js answers with null-prototype objects). */
// eslint-disable-next-line unicorn/prefer-structured-clone -- JSON's normalisation is the point: what a client receives
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const lines = (text: string) =>
	text
		.trimEnd()
		.split('\n')
		.map(line => JSON.parse(line) as Record<string, any>);

/** Every key path of a JSON value (a list's elements taken together), to compare shapes and not values. */
function shapeOf(value: unknown, path = ''): string[] {
	if (Array.isArray(value)) {
		return [...new Set([`${path}[]`, ...value.flatMap(item => shapeOf(item, `${path}[]`))])].sort();
	}

	if (value !== null && typeof value === 'object') {
		return Object.entries(value)
			.flatMap(([key, child]) => [`${path}.${key}`, ...shapeOf(child, `${path}.${key}`)])
			.sort();
	}

	return [];
}

describe('SimClock in its past', () => {
	test('fires timers in simulated order without real waiting, then goes live with each pending timer armed as a real one', async () => {
		const clock = new SimClock(100, startAt, hour);
		expect(clock.inPast).toBe(true);
		expect(clock.now()).toBe(startAt - hour);
		const fired: string[] = [];
		clock.setTimeout(() => fired.push('c'), 3000);
		clock.setTimeout(() => fired.push('a'), 1000);
		clock.setTimeout(() => fired.push('b1'), 2000);
		clock.setTimeout(() => fired.push('b2'), 2000);
		const cancelled = clock.setTimeout(() => fired.push('never'), 1500);
		cancelled.cancel();
		// A timer set while the past runs fires in order too.
		clock.setTimeout(() => {
			fired.push('d');
			clock.setTimeout(() => fired.push('e'), 10);
		}, 4000);
		clock.setTimeout(() => fired.push('live'), hour);
		expect(clock.pendingTimers).toBe(6);
		expect(clock.armedTimers).toBe(0);

		// Synchronously: no real time passes for simulated time.
		expect(clock.advance(startAt - hour + 5000)).toBe(true);
		expect(fired).toEqual(['a', 'b1', 'b2', 'c', 'd', 'e']);
		expect(clock.now()).toBe(startAt - hour + 5000);
		expect(clock.elapsed()).toBe(5000);

		clock.advance(startAt - 10);
		clock.goLive();
		expect(clock.inPast).toBe(false);
		expect(clock.pendingTimers).toBe(1);
		expect(clock.armedTimers).toBe(1);
		// The clock runs on from where the past got to (100× here): the last timer fires a moment later, in real time.
		await new Promise(resolve => setTimeout(resolve, 300));
		expect(fired.at(-1)).toBe('live');
		expect(clock.pendingTimers).toBe(0);
		expect(clock.armedTimers).toBe(0);
		expect(clock.elapsed()).toBeGreaterThan(hour);
		expect(() => clock.advance(startAt)).toThrow(/live/);
		clock.close();
	});

	test('a budget of real time stops advance early; it picks up where it stopped', () => {
		const clock = new SimClock(1, startAt, hour);
		const fired: number[] = [];
		for (let index = 1; index <= 1000; index++) {
			clock.setTimeout(() => fired.push(index), index);
		}

		expect(clock.advance(startAt, 0)).toBe(false);
		expect(fired.length).toBeGreaterThan(0);
		expect(fired.length).toBeLessThan(1000);
		expect(clock.advance(startAt)).toBe(true);
		expect(fired).toEqual(Array.from({length: 1000}, (_, index) => index + 1));
		expect(clock.pendingTimers).toBe(0);
	});

	test('close() leaves nothing behind, in the past or after it', () => {
		const clock = new SimClock(1, startAt, hour);
		clock.setTimeout(() => {
			throw new Error('must not fire');
		}, 10);
		clock.goLive();
		clock.setTimeout(() => {
			throw new Error('must not fire');
		}, 10);
		expect(clock.armedTimers).toBe(2);
		clock.close();
		expect(clock.pendingTimers).toBe(0);
		expect(clock.armedTimers).toBe(0);
	});
});

describe('the projection of the past', () => {
	test("answers the client's documents exactly as graphql-js does", () => {
		const sim = new Simulator({
			apiKey: 'k',
			seed: 3,
			speed: 1,
			rateLimitScale: 1,
			workerAllowance: 50,
			load: true,
			podCount: 12,
			graphqlRate: 5,
			pastMs: hour,
			startAt,
		});
		try {
			const rootValue = createRootValue(sim);
			for (const at of [0, 10 * minute, 40 * minute]) {
				sim.clock.advance(startAt - hour + at);
				for (const [name, variableValues] of [
					['endpoints', {}],
					['pods', {}],
					['gpuTypes', {gpuCount: 1, secureCloud: null}],
				] as const) {
					const document = parse(documents[name]);
					const expected = executeSync({schema, document, rootValue, variableValues});
					expect(expected.errors).toBeUndefined();
					expect(asJson(compileProjection(document)(rootValue, variableValues))).toEqual(asJson(expected.data));
				}
			}
		} finally {
			sim.close();
		}
	});
});

describe('GET /__sim/past', () => {
	test('NDJSON of what a polling client would have seen, in the shapes its API reads, at each kind’s cadence', async () => {
		const sim = await pastSim({past: 30 * minute});
		// Asked while the past runs: it streams as it is run and ends at the present.
		const streamed = await sim.call('GET', '/__sim/past');
		expect(streamed.status).toBe(200);
		expect(streamed.headers['content-type']).toBe('application/x-ndjson');
		const observations = lines(streamed.body as string);
		expect(observations.length).toBe(sim.pastFigures()!.observations);
		expect(observations.length).toBeGreaterThanOrEqual(121);

		const [first] = observations;
		const last = observations.at(-1)!;
		expect(Object.keys(first!).sort()).toEqual(['at', 'discount', 'endpoints', 'gpuTypes', 'health', 'pods']);
		expect(last.at - first!.at).toBeGreaterThanOrEqual(30 * minute - 15_000);
		expect(Math.abs(last.at - Date.now())).toBeLessThan(60_000);
		for (const [index, observation] of observations.entries()) {
			if (index > 0) {
				expect(observation.at - observations[index - 1]!.at).toBe(15_000);
			}

			// Health every 15 s, pods and GPU types every 30 s, the endpoint list every minute.
			expect(Object.keys(observation.health)).toHaveLength(9);
			expect('pods' in observation).toBe(index % 2 === 0);
			expect('gpuTypes' in observation).toBe(index % 2 === 0);
			expect('endpoints' in observation).toBe(index % 4 === 0);
		}

		// The same shapes as the client's own calls answer now.
		const pools = new Pools();
		try {
			const graphql = createGraphqlApi({url: `${sim.url}/graphql`, apiKey: sim.apiKey, pools});
			const jobs = createJobApi({baseUrl: `${sim.url}/v2`, apiKey: sim.apiKey, pools});
			const {endpoints, discount} = await graphql.endpointsAndDiscount();
			const runningPod = (list: any[]) => list.find(pod => pod.runtime?.gpus?.length > 0);
			expect(shapeOf(first!.endpoints.find((endpoint: any) => endpoint.pods.length > 0))).toEqual(
				shapeOf(endpoints.find(endpoint => (endpoint.pods?.length ?? 0) > 0)),
			);
			expect(shapeOf(first!.discount)).toEqual(shapeOf(discount));
			expect(shapeOf(runningPod(first!.pods))).toEqual(shapeOf(runningPod(await graphql.pods())));
			expect(shapeOf(first!.gpuTypes)).toEqual(shapeOf(await graphql.gpuTypes()));
			const [endpointId, health] = Object.entries(first!.health)[0]!;
			expect(shapeOf(health)).toEqual(shapeOf(await jobs.health(endpointId)));
			expect(first!.endpoints.map((endpoint: any) => endpoint.id).sort()).toEqual(endpoints.map(endpoint => endpoint.id).sort());
		} finally {
			await pools.close();
		}

		// Asked again once run: the same lines, with an exact length.
		const whole = await sim.call('GET', '/__sim/past');
		expect(whole.body).toBe(streamed.body);
		expect(Number(whole.headers['content-length'])).toBe(Buffer.byteLength(whole.body as string));
		expect(Number(whole.headers['x-sim-past-lines'])).toBe(observations.length);
		// About 40 KB a minute of the demo fleet: 6 h are some 15 MB.
		expect(Buffer.byteLength(whole.body as string) / 30).toBeLessThan(60_000);
	});

	test('the past moves as the fleet would: queues, workers, utilisation, prices and stock', async () => {
		const sim = await pastSim({past: hour});
		await sim.present;
		const observations = lines((await sim.call('GET', '/__sim/past')).body as string);
		const distinct = (values: unknown[]) => new Set(values.map(value => JSON.stringify(value))).size;
		const health: any[][] = observations.map(observation => Object.values(observation.health));
		expect(distinct(health.map(all => all.map(each => each.jobs.inQueue)))).toBeGreaterThan(5);
		expect(distinct(health.map(all => all.map(each => each.workers.running)))).toBeGreaterThan(5);
		const completed = health.map(all => all.reduce((sum, each) => sum + each.jobs.completed, 0));
		// Counters only grow, by thousands an hour.
		expect(completed.every((value, index) => index === 0 || value >= completed[index - 1]!)).toBe(true);
		expect(completed.at(-1)! - completed[0]!).toBeGreaterThan(5000);
		const withPods = observations.filter(observation => observation.pods);
		expect(distinct(withPods.map(observation => observation.pods.map((pod: any) => pod.runtime?.gpus?.[0]?.gpuUtilPercent)))).toBeGreaterThan(10);
		const withGpus = observations.filter(observation => observation.gpuTypes);
		expect(
			distinct(withGpus.map(observation => observation.gpuTypes.map((type: any) => [type.lowestPrice?.maxUnreservedGpuCount, type.secureSpotPrice]))),
		).toBeGreaterThan(10);
	});

	test('a seed replays the same past for the same present; another seed another', async () => {
		const [a, b, c] = await Promise.all([
			pastSim({past: 20 * minute, seed: 5, startAt}),
			pastSim({past: 20 * minute, seed: 5, startAt}),
			pastSim({past: 20 * minute, seed: 6, startAt}),
		]);
		const [pastA, pastB, pastC] = await Promise.all([a, b, c].map(async sim => (await sim.call('GET', '/__sim/past')).body as string));
		expect(lines(pastA!).length).toBe(81);
		expect(pastB).toBe(pastA);
		expect(pastC).not.toBe(pastA);
		expect(lines(pastA!).at(-1)!.at).toBe(startAt);
	});

	test('other requests wait for the present: their answers are never the past', async () => {
		const before = Date.now();
		const sim = await pastSim({past: 2 * hour});
		// Sent while the past runs.
		const [endpoints, health] = await Promise.all([sim.call('GET', '/__sim/endpoints'), sim.health('black-forest-labs-flux-1-schnell')]);
		expect(sim.pastFigures()).toBeDefined();
		expect(endpoints.body.now).toBeGreaterThanOrEqual(before);
		expect(health.jobs).toBeDefined();
	});

	test('behind the key; 404 without a past, 405 for anything but GET', async () => {
		const sim = await pastSim({past: 5 * minute});
		expect((await sim.call('GET', '/__sim/past', {key: null})).status).toBe(401);
		expect((await sim.call('GET', '/__sim/past', {key: 'wrong'})).status).toBe(401);
		expect((await sim.call('POST', '/__sim/past')).status).toBe(405);
		const none = await pastSim({});
		const reply = await none.call('GET', '/__sim/past');
		expect(reply.status).toBe(404);
		expect(reply.body.error).toMatch(/--past/);
	});
});

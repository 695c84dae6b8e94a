import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {createJobApi, type JobApi} from '../../source/api/job-api.js';
import {Pools} from '../../source/api/pools.js';
import {caught as caughtError} from '../helpers/caught.js';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';

let sim: TestSim;
let pools: Pools;
let api: JobApi;

beforeAll(async () => {
	sim = await startTestSim({
		speed: 20,
		apiKey: 'rpa_SECRETKEY0123456789',
		endpoints: [
			{id: 'echo', workersMin: 1, workersMax: 1, flashBoot: true},
			{id: 'parked', workersMax: 0},
		],
	});
	pools = new Pools({connectMs: 1000, headersMs: 2000, bodyMs: 2000, keepAliveMs: 65_000});
	api = createJobApi({baseUrl: `${sim.url}/v2`, apiKey: sim.apiKey, pools});
	await waitFor(async () => (await api.health('echo')).workers.idle === 1);
});

afterAll(async () => {
	await pools.close();
	await sim.close();
});

const caught = async (promise: Promise<unknown>) => caughtError(promise, sim.apiKey);

describe('job API client: every operation against the simulator', () => {
	test('run, status, stream, cancel, retry, purge-queue, health', async () => {
		const {id, status} = await api.run('echo', {input: {delay_ms: 1000, stream: ['a', 'b']}});
		expect(status).toBe('IN_QUEUE');
		const chunks: unknown[] = [];
		await waitFor(async () => {
			const body = await api.stream('echo', id);
			chunks.push(...body.stream.map(chunk => chunk.output));
			return body.status === 'COMPLETED';
		});
		expect(chunks).toEqual(['a', 'b']);
		expect((await api.status('echo', id)).output).toEqual({delay_ms: 1000, stream: ['a', 'b']});

		const failing = await api.run('echo', {input: {delay_ms: 10, error: 'bad'}});
		await waitFor(async () => (await api.status('echo', failing.id)).status === 'FAILED');
		expect(await api.retry('echo', failing.id)).toEqual({id: failing.id, status: 'IN_QUEUE'});

		const queued = await api.run('parked', {input: {}});
		expect(await api.cancel('parked', queued.id)).toEqual({id: queued.id, status: 'CANCELLED'});
		await api.run('parked', {input: {}});
		expect(await api.purgeQueue('parked')).toEqual({removed: 1, status: 'completed'});

		const health = await api.health('echo');
		expect(health.jobs.retried).toBe(1);
		expect(Object.keys(health.workers)).toHaveLength(6);
	});

	test('runSync and statusSync with waits', async () => {
		const done = await api.runSync('echo', {input: {delay_ms: 100, v: 2}}, {waitMs: 5000});
		expect(done).toMatchObject({status: 'COMPLETED', output: {v: 2}});
		const {id} = await api.run('echo', {input: {delay_ms: 2000}});
		expect((await api.statusSync('echo', id, {waitMs: 5000})).status).toBe('COMPLETED');
	});

	test('status with ttl', async () => {
		const {id} = await api.run('echo', {input: {delay_ms: 10}});
		await waitFor(async () => (await api.status('echo', id, {ttlMs: 60_000})).status === 'COMPLETED');
	});
});

describe('job API client: errors are typed and never carry the key', () => {
	test('401 → auth', async () => {
		const bad = createJobApi({baseUrl: `${sim.url}/v2`, apiKey: 'wrong-key-123', pools});
		expect((await caught(bad.health('echo'))).kind).toBe('auth');
	});

	test('404 → not-found for an unknown endpoint and an unknown job', async () => {
		expect((await caught(api.health('nope'))).kind).toBe('not-found');
		expect((await caught(api.status('echo', 'missing-job'))).kind).toBe('not-found');
	});

	test("400 and 413 → invalid, with the service's message", async () => {
		const invalid = await caught(api.run('echo', {input: {}, policy: {ttl: 5}}));
		expect(invalid).toMatchObject({kind: 'invalid', status: 400});
		expect(invalid.message).toMatch(/policy\.ttl/);
		const huge = await caught(api.run('echo', {input: {blob: 'x'.repeat(11 * 1024 * 1024)}}));
		expect(huge).toMatchObject({kind: 'invalid', status: 413});
	});

	test('429 → rate-limited with retryAfterMs from Retry-After', async () => {
		await sim.call('POST', '/__sim/faults', {body: {operation: 'health', status: 429, retryAfter: 7}});
		expect(await caught(api.health('echo'))).toMatchObject({kind: 'rate-limited', status: 429, retryAfterMs: 7000});
	});

	test('5xx → server', async () => {
		await sim.call('POST', '/__sim/faults', {body: {operation: 'status', status: 503}});
		expect(await caught(api.status('echo', 'x'))).toMatchObject({kind: 'server', status: 503});
	});

	test('a slow answer → timeout; a closed port → network', async () => {
		await sim.call('POST', '/__sim/faults', {body: {operation: 'health', status: 200, delayMs: 4000}});
		expect((await caught(api.health('echo'))).kind).toBe('timeout');
		const closedPools = new Pools({connectMs: 500, headersMs: 500, bodyMs: 500, keepAliveMs: 1000});
		const closed = createJobApi({baseUrl: 'http://127.0.0.1:9/v2', apiKey: sim.apiKey, pools: closedPools});
		expect((await caught(closed.health('echo'))).kind).toBe('network');
		await closedPools.close();
	});

	test('an abort → aborted', async () => {
		const controller = new AbortController();
		const pending = api.statusSync('echo', 'whatever', {waitMs: 5000, signal: controller.signal});
		controller.abort();
		expect((await caught(pending)).kind).toBe('aborted');
	});
});

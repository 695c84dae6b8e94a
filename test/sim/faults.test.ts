import {request} from 'undici';
import {afterAll, beforeAll, beforeEach, describe, expect, test} from 'vitest';
import {FaultInjector} from '../../source/sim/faults.js';
import {cliEnv, runCli} from '../helpers/run-cli.js';
import {startTestSim, type TestSim} from '../helpers/sim-client.js';

let sim: TestSim;

beforeAll(async () => {
	sim = await startTestSim({
		endpoints: [
			{id: 'a', workersMin: 1, workersMax: 1, flashBoot: true},
			{id: 'b', workersMin: 1, workersMax: 1, flashBoot: true},
		],
	});
});

afterAll(async () => sim.close());
beforeEach(async () => {
	await sim.call('DELETE', '/__sim/faults');
});

const fault = async (body: unknown) => sim.call('POST', '/__sim/faults', {body});
const raw = async (path: string) =>
	request(`${sim.url}${path}`, {headers: {authorization: `Bearer ${sim.apiKey}`}, headersTimeout: 10_000, bodyTimeout: 10_000});

describe('fault injection, driven from outside', () => {
	test('status with and without Retry-After, per operation and per endpoint, for a count', async () => {
		expect((await fault({kind: 'status', status: 429, retryAfter: 4, operation: 'health', endpoint: 'a', count: 2})).status).toBe(200);
		const first = await sim.call('GET', '/v2/a/health');
		expect(first.status).toBe(429);
		expect(first.headers['retry-after']).toBe('4');
		expect((await sim.call('GET', '/v2/b/health')).status).toBe(200);
		expect((await sim.call('GET', '/v2/a/health')).status).toBe(429);
		expect((await sim.call('GET', '/v2/a/health')).status).toBe(200);
		await fault({status: 503});
		const storm = await sim.call('GET', '/v2/b/health');
		expect(storm.status).toBe(503);
		expect(storm.headers['retry-after']).toBeUndefined();
	});

	test('a share hits about that part of the requests, until cleared', async () => {
		await fault({kind: 'status', status: 502, share: 0.3, operation: 'health'});
		let hit = 0;
		for (let index = 0; index < 200; index++) {
			hit += (await sim.call('GET', '/v2/a/health')).status === 502 ? 1 : 0;
		}

		expect(hit).toBeGreaterThan(30);
		expect(hit).toBeLessThan(95);
		expect((await sim.call('GET', '/__sim/faults')).body.faults).toHaveLength(1);
		await sim.call('DELETE', '/__sim/faults');
		expect((await sim.call('GET', '/v2/a/health')).status).toBe(200);
	});

	test('reset, malformed and truncated answers; latency with jitter; a slow body', async () => {
		await fault([
			{kind: 'reset', operation: 'health', endpoint: 'a'},
			{kind: 'malformed', operation: 'health', endpoint: 'b'},
		]);
		await expect(raw('/v2/a/health')).rejects.toThrow(/other side closed|socket hang up|econnreset/i);
		const malformed = await raw('/v2/b/health');
		expect(malformed.statusCode).toBe(200);
		await expect(malformed.body.json()).rejects.toThrow();
		await fault({kind: 'truncated', operation: 'health'});
		const truncated = await raw('/v2/a/health');
		await expect(truncated.body.text()).rejects.toThrow();
		await fault({kind: 'latency', delayMs: 300, jitterMs: 200, operation: 'health'});
		let started = performance.now();
		expect((await sim.call('GET', '/v2/a/health')).status).toBe(200);
		expect(performance.now() - started).toBeGreaterThanOrEqual(290);
		await fault({kind: 'slow-body', delayMs: 600, operation: 'health'});
		started = performance.now();
		const slow = await sim.call('GET', '/v2/a/health');
		expect(slow.body).toHaveProperty('workers');
		expect(performance.now() - started).toBeGreaterThanOrEqual(500);
	});

	test('latency holds a request its delay plus a share of its jitter: never less than the delay, never more than both', () => {
		const spec = {kind: 'latency', delayMs: 300, jitterMs: 200, operation: 'health'} as const;
		const holds = [0, 0.5, 0.999].map(draw => {
			const faults = new FaultInjector(() => draw);
			faults.add(spec);
			return faults.holdMs(faults.take('health')!);
		});
		expect(holds).toEqual([300, 400, 300 + 0.999 * 200]);
		const plain = new FaultInjector(() => 0.5);
		plain.add({kind: 'latency', delayMs: 300});
		expect(plain.holdMs(plain.take('health')!)).toBe(300);
	});

	test('a bad fault is refused with the reason', async () => {
		for (const [body, reason] of [
			[{kind: 'explode'}, /kind must be one of status, reset/],
			[{kind: 'status'}, /needs status/],
			[{status: 503, share: 2}, /share must be a number from 0 to 1/],
			[[{status: 503}, {delayMs: -1}], /fault 2: delayMs must be a non-negative number/],
		] as const) {
			const reply = await fault(body);
			expect(reply.status).toBe(400);
			expect(reply.body.error).toMatch(reason);
		}
	});
});

describe('podtop under injected faults', () => {
	test('a /run whose connection drops after sending is "may have happened", exit 5, and not sent again', async () => {
		const stats = async () => ((await sim.call('GET', '/__sim/stats')).body.endpoints.a?.run?.requests as number | undefined) ?? 0;
		const before = await stats();
		await fault({kind: 'reset', operation: 'run', endpoint: 'a'});
		const {code, stderr} = await runCli(
			['run', 'a', '--input', '{}', '--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`],
			cliEnv({RUNPOD_API_KEY: sim.apiKey, XDG_STATE_HOME: '/tmp/podtop-faults-state'}),
		);
		expect(code).toBe(5);
		expect(stderr).toMatch(/may have happened: submit a job to a .*not sent again\. the job may exist/);
		expect((await stats()) - before).toBe(1);
	});

	test('malformed and truncated answers to reads: the job is still followed to its end', async () => {
		await fault([
			{kind: 'malformed', operation: 'status', count: 2},
			{kind: 'truncated', operation: 'stream', count: 2},
		]);
		const {code, stdout} = await runCli(
			['run', 'b', '--input', '{"delay_ms": 1500, "stream": ["x", "y"]}', '--json', '--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`],
			cliEnv({RUNPOD_API_KEY: sim.apiKey, XDG_STATE_HOME: '/tmp/podtop-faults-state'}),
		);
		expect(code).toBe(0);
		expect(JSON.parse(stdout)).toMatchObject({status: 'COMPLETED'});
	});

	test('podtop sim --faults starts with them; bad JSON is exit 2', async () => {
		const bad = await runCli(['sim', '--port', '0', '--faults', '{"kind":'], cliEnv());
		expect(bad.code).toBe(2);
		expect(bad.stderr).toMatch(/--faults is not valid JSON \(line 1, column 9: unexpected end of input\); it is one fault or a list/);
		const wrong = await runCli(['sim', '--port', '0', '--faults', '{"kind": "nope"}'], cliEnv());
		expect(wrong.code).toBe(2);
		expect(wrong.stderr).toMatch(/--faults: kind must be one of/);
	});
});

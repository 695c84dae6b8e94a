import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {startTestSim, waitFor, waitForStatus, type TestSim} from '../helpers/sim-client.js';

let sim: TestSim;

// Speed 20: one simulated second is 50 real milliseconds.
beforeAll(async () => {
	sim = await startTestSim({
		speed: 20,
		endpoints: [
			{id: 'echo', worker: 'echo', workersMin: 2, workersMax: 2, flashBoot: true},
			{id: 'single', worker: 'echo', workersMin: 1, workersMax: 1, flashBoot: true},
			{id: 'aggregate', worker: 'echo', workersMin: 1, workersMax: 1, flashBoot: true, returnAggregateStream: true},
			{id: 'parked', worker: 'echo', workersMin: 0, workersMax: 0},
		],
	});
	await waitFor(async () => (await sim.health('single')).workers.idle === 1);
	await waitFor(async () => (await sim.health('echo')).workers.idle === 2);
});

afterAll(async () => sim.close());

describe('/run and /status', () => {
	test('a job goes IN_QUEUE → IN_PROGRESS → COMPLETED with the fields of each state', async () => {
		const submitted = await sim.call('POST', '/v2/parked/run', {body: {input: {n: 1}}});
		expect(submitted.status).toBe(200);
		expect(submitted.body).toEqual({id: expect.stringMatching(/^[\da-f]{8}-[\da-f]{4}-4[\da-f]{3}-[89ab][\da-f]{3}-[\da-f]{12}-u1$/), status: 'IN_QUEUE'});
		expect((await sim.status('parked', submitted.body.id)).body).toEqual({id: submitted.body.id, status: 'IN_QUEUE'});

		const id = await sim.run('single', {delay_ms: 4000, payload: 'hello'});
		const running = await waitForStatus(sim, 'single', id, 'IN_PROGRESS');
		expect(running).toEqual({id, status: 'IN_PROGRESS', delayTime: expect.any(Number), workerId: expect.any(String)});

		const done = await waitForStatus(sim, 'single', id, 'COMPLETED');
		expect(done).toMatchObject({id, status: 'COMPLETED', workerId: running.workerId, output: {delay_ms: 4000, payload: 'hello'}});
		expect(done.executionTime).toBeGreaterThanOrEqual(3900);
		expect(done.error).toBeUndefined();
	});

	test('/status answers POST as well as GET (the Go SDK posts)', async () => {
		const id = await sim.run('echo', {delay_ms: 10});
		const reply = await sim.call('POST', `/v2/echo/status/${id}`, {body: {}});
		expect(reply.status).toBe(200);
		expect(reply.body.id).toBe(id);
	});

	test('a handler error ends the job FAILED with the error as a string', async () => {
		const id = await sim.run('echo', {delay_ms: 100, error: 'CUDA out of memory'});
		const failed = await waitForStatus(sim, 'echo', id, 'FAILED');
		expect(failed.error).toBe('CUDA out of memory');
		expect(failed.output).toBeUndefined();
		expect(typeof failed.executionTime).toBe('number');
	});

	test('a job past policy.executionTimeout is TIMED_OUT and frees its worker', async () => {
		const id = await sim.run('single', {delay_ms: 60_000}, {policy: {executionTimeout: 6000}});
		const timedOut = await waitForStatus(sim, 'single', id, 'TIMED_OUT');
		expect(timedOut.executionTime).toBeGreaterThanOrEqual(5900);
		expect(typeof timedOut.error).toBe('string');
		await waitFor(async () => (await sim.health('single')).workers.idle === 1);
	});

	test('an unknown field in the body is ignored and s3Config never comes back', async () => {
		const s3Config = {accessId: 'AKIA-secret', accessSecret: 'shh', bucketName: 'b', endpointUrl: 'https://s3.example.com'};
		const id = await sim.run('echo', {delay_ms: 10}, {s3Config, somethingNew: true});
		const done = await waitForStatus(sim, 'echo', id, 'COMPLETED');
		expect(JSON.stringify(done)).not.toMatch(/AKIA-secret|s3Config|accessSecret/);
	});
});

describe('/cancel', () => {
	test('removes a queued job: CANCELLED, never runs', async () => {
		const id = await sim.run('parked', {});
		const reply = await sim.call('POST', `/v2/parked/cancel/${id}`);
		expect(reply.body).toEqual({id, status: 'CANCELLED'});
		expect((await sim.status('parked', id)).body).toEqual({id, status: 'CANCELLED'});
		expect((await sim.health('parked')).jobs.inQueue).toBe(1);
	});

	test('stops a running job and frees the worker; an empty body works', async () => {
		const id = await sim.run('single', {delay_ms: 60_000});
		await waitForStatus(sim, 'single', id, 'IN_PROGRESS');
		const reply = await sim.call('POST', `/v2/single/cancel/${id}`, {raw: ''});
		expect(reply.body).toEqual({id, status: 'CANCELLED'});
		const after = (await sim.status('single', id)).body;
		expect(after.status).toBe('CANCELLED');
		expect(after.output).toBeUndefined();
		await waitFor(async () => (await sim.health('single')).workers.idle === 1);
	});

	test('leaves a finished job as it is', async () => {
		const id = await sim.run('echo', {delay_ms: 10});
		await waitForStatus(sim, 'echo', id, 'COMPLETED');
		expect((await sim.call('POST', `/v2/echo/cancel/${id}`, {body: {}})).body).toEqual({id, status: 'COMPLETED'});
	});
});

describe('/retry', () => {
	test('requeues a FAILED job with the same id and input, output and error cleared', async () => {
		const before = (await sim.health('single')).jobs.retried;
		const id = await sim.run('single', {delay_ms: 2000, error: 'boom'});
		await waitForStatus(sim, 'single', id, 'FAILED');
		const reply = await sim.call('POST', `/v2/single/retry/${id}`);
		expect(reply.body).toEqual({id, status: 'IN_QUEUE'});
		const rerun = await waitForStatus(sim, 'single', id, 'IN_PROGRESS');
		expect(rerun.error).toBeUndefined();
		expect((await waitForStatus(sim, 'single', id, 'FAILED')).error).toBe('boom');
		expect((await sim.health('single')).jobs.retried).toBe(before + 1);
	});

	test('requeues a TIMED_OUT job', async () => {
		const id = await sim.run('single', {delay_ms: 60_000}, {policy: {executionTimeout: 5001}});
		await waitForStatus(sim, 'single', id, 'TIMED_OUT');
		expect((await sim.call('POST', `/v2/single/retry/${id}`)).body).toEqual({id, status: 'IN_QUEUE'});
		await sim.call('POST', `/v2/single/cancel/${id}`);
	});

	test('refuses COMPLETED, CANCELLED, queued and running jobs with a 400', async () => {
		const completed = await sim.run('echo', {delay_ms: 10});
		await waitForStatus(sim, 'echo', completed, 'COMPLETED');
		const queued = await sim.run('parked', {});
		const cancelled = await sim.run('parked', {});
		await sim.call('POST', `/v2/parked/cancel/${cancelled}`);
		for (const [endpoint, id] of [
			['echo', completed],
			['parked', queued],
			['parked', cancelled],
		]) {
			const reply = await sim.call('POST', `/v2/${endpoint}/retry/${id}`);
			expect(reply.status).toBe(400);
			expect(reply.body.error).toMatch(/only FAILED or TIMED_OUT/);
		}
	});
});

describe('/purge-queue', () => {
	test('drops queued jobs only and answers in lower case', async () => {
		const running = await sim.run('single', {delay_ms: 5000});
		await waitForStatus(sim, 'single', running, 'IN_PROGRESS');
		const queued = [await sim.run('single', {}), await sim.run('single', {}), await sim.run('single', {}, {policy: {lowPriority: true}})];
		const reply = await sim.call('POST', '/v2/single/purge-queue');
		expect(reply.body).toEqual({removed: 3, status: 'completed'});
		for (const id of queued) {
			expect((await sim.status('single', id)).status).toBe(404);
		}

		expect((await sim.status('single', running)).body.status).toBe('IN_PROGRESS');
		expect((await sim.health('single')).jobs.inQueue).toBe(0);
		await sim.call('POST', `/v2/single/cancel/${running}`);
	});
});

describe('/runsync and /status-sync', () => {
	test('/runsync returns the full COMPLETED object when the job ends within the wait', async () => {
		const reply = await sim.call('POST', '/v2/echo/runsync', {body: {input: {delay_ms: 200, v: 1}}});
		expect(reply.status).toBe(200);
		expect(reply.body).toMatchObject({id: expect.stringMatching(/^sync-.+-u1$/), status: 'COMPLETED', output: {v: 1}});
		expect(typeof reply.body.executionTime).toBe('number');
	});

	test('/runsync answers a still-running job after its wait, then /status takes over', async () => {
		const started = Date.now();
		const reply = await sim.call('POST', '/v2/single/runsync?wait=1000', {body: {input: {delay_ms: 40_000}}});
		expect(Date.now() - started).toBeGreaterThanOrEqual(950);
		// Still running: answered when its wait ended, not when the job did.
		expect(reply.body).toEqual({id: expect.stringMatching(/^sync-/), status: expect.stringMatching(/^IN_(QUEUE|PROGRESS)$/)});
		expect((await waitForStatus(sim, 'single', reply.body.id, 'COMPLETED', 15_000)).output).toEqual({delay_ms: 40_000});
	});

	test('/runsync validates wait', async () => {
		for (const wait of ['999', '300001', 'abc', '1.5']) {
			const reply = await sim.call('POST', `/v2/echo/runsync?wait=${wait}`, {body: {input: {}}});
			expect(reply.status, wait).toBe(400);
			expect(reply.body.error).toMatch(/wait/);
		}
	});

	test('/status-sync holds until the job is terminal, GET and POST', async () => {
		for (const method of ['GET', 'POST']) {
			const id = await sim.run('echo', {delay_ms: 3000});
			const started = Date.now();
			const reply = await sim.call(method, `/v2/echo/status-sync/${id}?wait=10000`);
			expect(reply.body.status).toBe('COMPLETED');
			expect(Date.now() - started).toBeGreaterThanOrEqual(100);
		}
	});

	test('/status-sync answers like /status when the wait ends first', async () => {
		const id = await sim.run('parked', {});
		const reply = await sim.call('GET', `/v2/parked/status-sync/${id}?wait=1000`);
		expect(reply.body).toEqual({id, status: 'IN_QUEUE'});
	});
});

describe('/stream', () => {
	test('drains only the chunks produced since the last call, keeps the stream key after the end', async () => {
		const id = await sim.run('single', {delay_ms: 3000, stream: ['a', 'b', 'c', 'd', 'e']});
		const seen: unknown[] = [];
		let last: any;
		await waitFor(async () => {
			last = (await sim.call('GET', `/v2/single/stream/${id}`)).body;
			expect(Array.isArray(last.stream)).toBe(true);
			seen.push(...last.stream.map((chunk: {output: unknown}) => chunk.output));
			return last.status === 'COMPLETED';
		});
		expect(seen).toEqual(['a', 'b', 'c', 'd', 'e']);
		expect((await sim.call('POST', `/v2/single/stream/${id}`)).body).toEqual({status: 'COMPLETED', stream: []});
	});

	test('/stream?wait= holds until a chunk arrives', async () => {
		const id = await sim.run('single', {delay_ms: 2000, stream: ['only']});
		const reply = await sim.call('GET', `/v2/single/stream/${id}?wait=5000`);
		expect(reply.body.stream).toEqual([{output: 'only'}]);
		await waitForStatus(sim, 'single', id, 'COMPLETED');
	});

	test('splits a chunk over 1 MB into pieces of at most 1 MB', async () => {
		const big = 'x'.repeat((2.5 * 1024 * 1024) | 0);
		const id = await sim.run('single', {delay_ms: 100, stream: [big]});
		await waitForStatus(sim, 'single', id, 'COMPLETED');
		const {stream} = (await sim.call('GET', `/v2/single/stream/${id}`)).body;
		expect(stream).toHaveLength(3);
		for (const chunk of stream) {
			expect(Buffer.byteLength(chunk.output)).toBeLessThanOrEqual(1024 * 1024);
		}

		expect(stream.map((chunk: {output: string}) => chunk.output).join('')).toBe(big);
	});

	test('with return_aggregate_stream the output is the list of all yields', async () => {
		const id = await sim.run('aggregate', {delay_ms: 200, stream: [{t: 1}, {t: 2}]});
		expect((await waitForStatus(sim, 'aggregate', id, 'COMPLETED')).output).toEqual([{t: 1}, {t: 2}]);
		const sync = await sim.call('POST', '/v2/aggregate/runsync', {body: {input: {delay_ms: 100, stream: ['p', 'q']}}});
		expect(sync.body.output).toEqual(['p', 'q']);
	});
});

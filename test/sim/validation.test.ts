import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {startTestSim, type TestSim} from '../helpers/sim-client.js';

let sim: TestSim;
const megabyte = 1024 * 1024;

beforeAll(async () => {
	sim = await startTestSim({endpoints: [{id: 'echo', worker: 'echo', workersMin: 0, workersMax: 0}]});
});

afterAll(async () => sim.close());

async function expect400(path: string, raw: string, message: RegExp): Promise<void> {
	const reply = await sim.call('POST', path, {raw});
	expect(reply.status, raw).toBe(400);
	expect(reply.body.error, raw).toMatch(message);
}

describe('request bodies', () => {
	test('malformed JSON, a body without an input object, or a non-object body is 400', async () => {
		for (const route of ['run', 'runsync?wait=1000']) {
			await expect400(`/v2/echo/${route}`, '{"input": {', /not valid JSON/);
			await expect400(`/v2/echo/${route}`, '', /not valid JSON/);
			await expect400(`/v2/echo/${route}`, '{"prompt": "hi"}', /"input" object/);
			await expect400(`/v2/echo/${route}`, '{"input": [1, 2]}', /"input" object/);
			await expect400(`/v2/echo/${route}`, '{"input": "text"}', /"input" object/);
			await expect400(`/v2/echo/${route}`, '[]', /JSON object/);
		}
	});

	test('policy is validated: executionTimeout > 5000 ms, ttl 10 s to 7 days, lowPriority boolean', async () => {
		const cases: Array<[unknown, RegExp]> = [
			[{executionTimeout: 5000}, /executionTimeout/],
			[{executionTimeout: 1}, /executionTimeout/],
			[{executionTimeout: '60000'}, /executionTimeout/],
			[{executionTimeout: 8 * 24 * 3_600_000}, /executionTimeout/],
			[{ttl: 9999}, /ttl/],
			[{ttl: 7 * 24 * 3_600_000 + 1}, /ttl/],
			[{ttl: 12_000.5}, /ttl/],
			[{lowPriority: 'yes'}, /lowPriority/],
			['fast', /policy must be an object/],
		];
		for (const [policy, message] of cases) {
			await expect400('/v2/echo/run', JSON.stringify({input: {}, policy}), message);
		}

		for (const policy of [{executionTimeout: 5001}, {ttl: 10_000}, {ttl: 7 * 24 * 3_600_000}, {lowPriority: true}, {}]) {
			expect((await sim.call('POST', '/v2/echo/run', {body: {input: {}, policy}})).status, JSON.stringify(policy)).toBe(200);
		}
	});

	test('webhook must be an http(s) URL', async () => {
		await expect400('/v2/echo/run', JSON.stringify({input: {}, webhook: 'not a url'}), /webhook/);
		await expect400('/v2/echo/run', JSON.stringify({input: {}, webhook: 'ftp://example.com/x'}), /webhook/);
		await expect400('/v2/echo/run', JSON.stringify({input: {}, webhook: 42}), /webhook/);
	});

	test('/run takes up to 10 MB and answers 413 above it', async () => {
		const filler = (size: number) => JSON.stringify({input: {blob: 'a'.repeat(size)}});
		expect((await sim.call('POST', '/v2/echo/run', {raw: filler(10 * megabyte - 100)})).status).toBe(200);
		const tooBig = await sim.call('POST', '/v2/echo/run', {raw: filler(10 * megabyte)});
		expect(tooBig.status).toBe(413);
		expect(tooBig.body.error).toMatch(/10 MB/);
	});

	test('/runsync takes up to 20 MB and answers 413 above it', async () => {
		const filler = (size: number) => JSON.stringify({input: {blob: 'a'.repeat(size)}});
		expect((await sim.call('POST', '/v2/echo/runsync?wait=1000', {raw: filler(15 * megabyte)})).status).toBe(200);
		const tooBig = await sim.call('POST', '/v2/echo/runsync?wait=1000', {raw: filler(20 * megabyte)});
		expect(tooBig.status).toBe(413);
		expect(tooBig.body.error).toMatch(/20 MB/);
	});

	test('/status?ttl= must be a whole number of milliseconds', async () => {
		const id = await sim.run('echo', {});
		const reply = await sim.call('GET', `/v2/echo/status/${id}?ttl=soon`);
		expect(reply.status).toBe(400);
		expect(reply.body.error).toMatch(/ttl/);
	});
});

import {afterEach, describe, expect, test} from 'vitest';
import {startTestSim, waitFor, waitForStatus, type TestSim} from '../helpers/sim-client.js';

let sims: TestSim[] = [];
afterEach(async () => {
	await Promise.all(sims.map(async sim => sim.close()));
	sims = [];
});

async function sim(options: Parameters<typeof startTestSim>[0] = {}): Promise<TestSim> {
	const started = await startTestSim(options);
	sims.push(started);
	return started;
}

const dev = 'black-forest-labs-flux-1-dev';
const schnell = 'black-forest-labs-flux-1-schnell';

describe('the demo fleet', () => {
	test('is deterministic for a seed: same endpoints; another seed differs; a job a client sends has an id of its own in each', async () => {
		const a = await sim({seed: 7, apiKey: 'k'});
		const b = await sim({seed: 7, apiKey: 'k'});
		const c = await sim({seed: 8, apiKey: 'k'});
		expect(a.endpoints.map(endpoint => endpoint.id)).toEqual(b.endpoints.map(endpoint => endpoint.id));
		expect(a.endpoints.map(endpoint => endpoint.id)).not.toEqual(c.endpoints.map(endpoint => endpoint.id));
		const endpoint = a.endpoints[0]!.id;
		// Not seeded: two demo worlds of one seed never give one job's id to two different jobs.
		expect(await a.run(endpoint, {})).not.toBe(await b.run(endpoint, {}));
		expect(a.endpoints.map(endpoint => endpoint.worker)).toEqual(
			expect.arrayContaining(['text-generation', 'echo', 'flaky', 'slow', 'flux-dev', 'flux-schnell']),
		);
		for (const {id} of a.endpoints) {
			expect(id).toMatch(/^([a-z\d]{14}|black-forest-labs-flux-1-(dev|schnell))$/);
		}
	});

	test('scales to many endpoints with --endpoints', async () => {
		const large = await sim({endpointCount: 500});
		expect(large.endpoints.filter(endpoint => !endpoint.public)).toHaveLength(500);
		expect(new Set(large.endpoints.map(endpoint => endpoint.id)).size).toBe(502);
	});

	test('the load generator keeps queues moving when on', async () => {
		const live = await sim({load: true, speed: 30});
		const busy = live.endpoints.find(endpoint => endpoint.name === 'embeddings-bge-m3')!;
		await waitFor(
			async () => {
				const {jobs} = await live.health(busy.id);
				return jobs.completed > 3;
			},
			10_000,
			100,
		);
	});

	test("the text-generation worker streams chunks shaped like the service's, with metrics", async () => {
		const live = await sim({speed: 10, seed: 3});
		const llm = live.endpoints.find(endpoint => endpoint.worker === 'text-generation' && endpoint.workersMin > 0)!;
		const id = await live.run(llm.id, {prompt: 'Tell me about GPUs', max_tokens: 40});
		const chunks: any[] = [];
		await waitFor(
			async () => {
				const {body} = await live.call('GET', `/v2/${llm.id}/stream/${id}`);
				chunks.push(...body.stream);
				return body.status === 'COMPLETED';
			},
			20_000,
			50,
		);
		expect(chunks.length).toBeGreaterThan(2);
		for (const chunk of chunks) {
			expect(chunk).toEqual({
				metrics: expect.objectContaining({
					avg_gen_throughput: expect.any(Number),
					gpu_kv_cache_usage: expect.any(Number),
					input_tokens: expect.any(Number),
					output_tokens: expect.any(Number),
				}),
				output: {input_tokens: expect.any(Number), output_tokens: expect.any(Number), text: [expect.any(String)]},
			});
		}

		expect(chunks.at(-1).output.output_tokens).toBe(40);
		const done = (await live.status(llm.id, id)).body;
		expect(done.output).toEqual(chunks.map(chunk => chunk.output));
	});
});

describe('public image models', () => {
	test('FLUX.1 dev bills 1024×1024 at 0.02097152 $ with the default size', async () => {
		const live = await sim({speed: 20});
		const reply = await live.call('POST', `/v2/${dev}/runsync`, {body: {input: {prompt: 'a red fox'}}});
		expect(reply.body).toMatchObject({status: 'COMPLETED', output: {cost: 0.020_971_52, image_url: expect.stringMatching(/\.jpg$/)}});
	});

	test('FLUX.1 schnell bills 0.0024 $ per megapixel; png on request', async () => {
		const live = await sim({speed: 20});
		const reply = await live.call('POST', `/v2/${schnell}/runsync`, {body: {input: {prompt: 'x', width: 512, height: 768, image_format: 'png'}}});
		expect(reply.body.output).toEqual({cost: ((512 * 768) / 1e6) * 0.0024, image_url: expect.stringMatching(/\.png$/)});
		expect(reply.body.output.cost).toBe(0.000_943_718_4);
	});

	test.each([
		[dev, {prompt: 'x', width: 1000}, 'Invalid parameter: width must be divisible by 16'],
		[dev, {prompt: 'x', height: 1600}, 'Invalid parameter: height must be between 256 and 1536'],
		[dev, {prompt: 'x', width: 192}, 'Invalid parameter: width must be between 256 and 1536'],
		[dev, {width: 512}, 'Invalid parameter: prompt is required'],
		[dev, {prompt: 'x', num_inference_steps: 51}, 'Invalid parameter: num_inference_steps must be between 1 and 50'],
		[schnell, {prompt: 'x', num_inference_steps: 9}, 'Invalid parameter: num_inference_steps must be between 1 and 8'],
		[dev, {prompt: 'x', guidance: 11}, 'Invalid parameter: guidance must be a number between 0 and 10'],
		[dev, {prompt: 'x', image_format: 'gif'}, 'Invalid parameter: image_format must be jpeg or png'],
		[dev, {prompt: 'x', seed: -5}, 'Invalid parameter: seed must be -1 (random) or a non-negative integer'],
	])('%s rejects %j: FAILED, costs nothing', async (model, input, error) => {
		const live = await sim({speed: 20});
		const reply = await live.call('POST', `/v2/${model}/runsync`, {body: {input}});
		expect(reply.body).toMatchObject({status: 'FAILED', error});
		expect(reply.body.output).toBeUndefined();
	});

	test("works on a 16-pixel grid: the AI SDK provider's default 1328×1328 completes", async () => {
		const live = await sim({speed: 50});
		const reply = await live.call('POST', `/v2/${schnell}/runsync`, {body: {input: {prompt: 'x', width: 1328, height: 1328}}});
		expect(reply.body).toMatchObject({status: 'COMPLETED', output: {cost: 0.004_232_601_6}});
	});

	test('accepts the documented ranges', async () => {
		const live = await sim({speed: 50});
		const reply = await live.call('POST', `/v2/${schnell}/runsync`, {
			body: {input: {prompt: 'x', width: 1536, height: 256, num_inference_steps: 8, guidance: 0, seed: 42}},
		});
		expect(reply.body.status).toBe('COMPLETED');
	});
});

describe('behaviours of the demo workers', () => {
	test('the flaky worker fails a share of jobs with realistic error strings', async () => {
		const live = await sim({speed: 50, endpoints: [{id: 'flaky', worker: 'flaky', workersMin: 10, workersMax: 10, flashBoot: true}]});
		await waitFor(async () => (await live.health('flaky')).workers.idle === 10);
		const ids = await Promise.all(Array.from({length: 30}, async () => live.run('flaky', {prompt: 'x'})));
		const finals = await Promise.all(
			ids.map(async id =>
				waitFor(
					async () => {
						const {body} = await live.status('flaky', id);
						return body.status === 'COMPLETED' || body.status === 'FAILED' ? body : undefined;
					},
					10_000,
					50,
				),
			),
		);
		const failed = finals.filter(job => job.status === 'FAILED');
		expect(failed.length).toBeGreaterThan(2);
		expect(failed.length).toBeLessThan(25);
		for (const job of failed) {
			expect(typeof job.error).toBe('string');
			if (job.error.startsWith('{')) {
				expect(JSON.parse(job.error)).toMatchObject({error_type: expect.any(String), error_message: expect.any(String)});
			}
		}
	});

	test('the slow worker reports progress and hits a short execution timeout', async () => {
		const live = await sim({speed: 50, endpoints: [{id: 'slow', worker: 'slow', workersMin: 1, workersMax: 1, flashBoot: true, executionTimeoutMs: 30_000}]});
		const id = await live.run('slow', {seconds: 80});
		const timedOut = await waitForStatus(live, 'slow', id, 'TIMED_OUT', 10_000);
		expect(timedOut.executionTime).toBeGreaterThanOrEqual(29_000);
		const {stream} = (await live.call('GET', `/v2/slow/stream/${id}`)).body;
		expect(stream.length).toBeGreaterThan(0);
		expect(stream[0].output).toMatchObject({progress: expect.any(Number)});
	});
});

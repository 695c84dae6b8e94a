import jpeg from 'jpeg-js';
import {request} from 'undici';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {gql} from '../helpers/graphql-client.js';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';

let sim: TestSim;
let llm: string;
let workerful: string;

beforeAll(async () => {
	sim = await startTestSim({seed: 3, speed: 20, graphqlRate: 1000});
	const {endpoints} = (await sim.call('GET', '/__sim/endpoints')).body as {endpoints: Array<{id: string; worker: string; public: boolean; workersMin: number}>};
	llm = endpoints.find(endpoint => endpoint.worker === 'text-generation' && !endpoint.public)!.id;
	workerful = endpoints.find(endpoint => endpoint.workersMin > 0 && !endpoint.public)!.id;
});

afterAll(async () => sim.close());

describe("the spec's fields and rules", () => {
	test('1. an endpoint lists its workers as pods, with desiredStatus', async () => {
		const reply = await gql(sim, '{ myself { endpoints { id workersMin pods { id desiredStatus } } } }');
		expect(reply.status).toBe(200);
		expect(reply.body.errors).toBeUndefined();
		const endpoint = reply.body.data.myself.endpoints.find((each: {id: string}) => each.id === workerful);
		expect(endpoint.pods.length).toBeGreaterThanOrEqual(endpoint.workersMin);
		for (const pod of endpoint.pods) {
			expect(pod).toEqual({id: expect.any(String), desiredStatus: expect.stringMatching(/^(RUNNING|EXITED)$/)});
		}
	});

	test('2. lowestPrice takes and returns compliance; a standard the cloud lacks leaves no stock', async () => {
		const secure = await gql(
			sim,
			'{ gpuTypes(input: {id: "NVIDIA L4"}) { lowestPrice(input: {gpuCount: 1, secureCloud: true, compliance: ["GDPR"]}) { compliance stockStatus } } }',
		);
		expect(secure.body.errors).toBeUndefined();
		expect(secure.body.data.gpuTypes[0].lowestPrice.compliance).toContain('GDPR');
		const community = await gql(sim, '{ gpuTypes(input: {id: "NVIDIA L4"}) { lowestPrice(input: {gpuCount: 1, secureCloud: false}) { compliance } } }');
		expect(community.body.data.gpuTypes[0].lowestPrice.compliance).toBeNull();
		const unmet = await gql(
			sim,
			'{ gpuTypes(input: {id: "NVIDIA L4"}) { lowestPrice(input: {gpuCount: 1, secureCloud: false, compliance: ["SOC_2_TYPE_2"]}) { stockStatus availableGpuCounts } } }',
		);
		expect(unmet.body.data.gpuTypes[0].lowestPrice).toEqual({stockStatus: null, availableGpuCounts: []});
	});

	test('3. saveEndpoint with an id modifies: name, templateId and gpuIds are needed on creation only', async () => {
		const reply = await gql(sim, `mutation { saveEndpoint(input: {id: "${workerful}", workersMax: 6}) { id name templateId gpuIds workersMax } }`);
		expect(reply.body.errors).toBeUndefined();
		expect(reply.body.data.saveEndpoint).toMatchObject({
			id: workerful,
			workersMax: 6,
			name: expect.any(String),
			templateId: expect.any(String),
			gpuIds: expect.any(String),
		});
		const create = await gql(sim, 'mutation { saveEndpoint(input: {workersMax: 1}) { id } }');
		expect(create.body.errors[0].message).toBe('name is required');
	});

	test('4. a 0-GPU pod deploys, runs without runtime.gpus, and costs only its CPU, memory and disks', async () => {
		const deploy = await gql(
			sim,
			'mutation { podFindAndDeployOnDemand(input: {gpuTypeId: "NVIDIA L4", gpuCount: 0, imageName: "busybox", containerDiskInGb: 10, cloudType: SECURE}) { id gpuCount costPerHr vcpuCount memoryInGb desiredStatus runtime { gpus { id } container { cpuPercent } } } }',
		);
		expect(deploy.body.errors).toBeUndefined();
		const pod = deploy.body.data.podFindAndDeployOnDemand;
		expect(pod).toMatchObject({gpuCount: 0, desiredStatus: 'RUNNING', vcpuCount: 2, memoryInGb: 8, runtime: {gpus: []}});
		// 2 vCPU × $0.02 + 8 GB × $0.005 + 10 GB of disk at $0.10 a month: $0.081/h, far below one L4's $0.43.
		expect(pod.costPerHr).toBe(0.081);
		const tooMany = await gql(sim, 'mutation { podFindAndDeployOnDemand(input: {gpuTypeId: "NVIDIA L4", gpuCount: -1, imageName: "busybox"}) { id } }');
		expect(tooMany.body.errors[0].message).toMatch(/gpuCount must be between 0 and 8/);
	});

	test('a GPU type no allowed CUDA version runs on has no instances', async () => {
		const reply = await gql(
			sim,
			'mutation { podFindAndDeployOnDemand(input: {gpuTypeId: "NVIDIA B200", gpuCount: 1, imageName: "x", allowedCudaVersions: ["12.1", "12.4"]}) { id } }',
		);
		expect(reply.body.errors[0].message).toMatch(/no longer any instances available/);
	});

	test('5. /stream has its own limit, apart from /status', async () => {
		const job = await sim.run(llm, {prompt: 'hi', max_tokens: 8});
		await sim.call('GET', `/v2/${llm}/stream/${job}`);
		await sim.call('GET', `/v2/${llm}/status/${job}`);
		const stats = (await sim.call('GET', '/__sim/stats')).body.endpoints[llm];
		expect(stats.stream.requests).toBe(1);
		expect(stats.status.requests).toBe(1);
		// Before, /stream was also counted in the status group.
		expect(stats['group:status']).toBeUndefined();
	});
});

describe('6. the OpenAI-compatible routes of a language-model worker', () => {
	test('models and a chat completion, counted on the compat limit', async () => {
		const models = await sim.call('GET', `/v2/${llm}/openai/v1/models`);
		expect(models.status).toBe(200);
		expect(models.body).toMatchObject({object: 'list', data: [{object: 'model', id: expect.any(String)}]});
		const chat = await sim.call('POST', `/v2/${llm}/openai/v1/chat/completions`, {
			body: {model: 'm', messages: [{role: 'user', content: 'Hello'}], max_tokens: 16},
		});
		expect(chat.status).toBe(200);
		expect(chat.body).toMatchObject({
			object: 'chat.completion',
			model: 'm',
			choices: [{index: 0, message: {role: 'assistant', content: expect.stringMatching(/\w/)}, finish_reason: 'length'}],
			usage: {completion_tokens: 16},
		});
		expect((await sim.call('GET', '/__sim/stats')).body.endpoints[llm].compat.requests).toBe(2);
	});

	test('stream: true answers server-sent events, one delta per chunk, then [DONE]', async () => {
		const response = await request(`${sim.url}/v2/${llm}/openai/v1/chat/completions`, {
			method: 'POST',
			headers: {authorization: `Bearer ${sim.apiKey}`, 'content-type': 'application/json'},
			body: JSON.stringify({messages: [{role: 'user', content: 'Hello'}], max_tokens: 24, stream: true}),
		});
		expect(response.headers['content-type']).toBe('text/event-stream');
		const text = await response.body.text();
		const events = text.split('\n\n').filter(Boolean);
		expect(events.at(-1)).toBe('data: [DONE]');
		const chunks = events.slice(0, -1).map(event => JSON.parse(event.replace(/^data: /, '')));
		expect(chunks[0].choices[0].delta.role).toBe('assistant');
		expect(chunks.at(-1).choices[0].finish_reason).toBe('length');
		expect(
			chunks
				.map(chunk => chunk.choices[0].delta.content ?? '')
				.join('')
				.trim()
				.split(/\s+/),
		).toHaveLength(24);
	});

	test('bad requests get OpenAI-style errors; other workers say they do not serve it', async () => {
		const bad = await sim.call('POST', `/v2/${llm}/openai/v1/chat/completions`, {body: {messages: []}});
		expect(bad.status).toBe(400);
		expect(bad.body).toMatchObject({object: 'error', type: 'invalid_request_error', message: expect.stringMatching(/messages/)});
		const image = await sim.call('POST', '/v2/black-forest-labs-flux-1-dev/openai/v1/chat/completions', {body: {messages: [{role: 'user', content: 'x'}]}});
		expect(image.status).toBe(400);
		expect(image.body.message).toMatch(/does not serve the OpenAI-compatible API/);
	});
});

describe('7. image results are public links to real images', () => {
	test.each([
		['jpeg', 1328, 1328],
		['png', 512, 768],
	])('%s %i×%i: served without a key, decodes at the requested size', async (format, width, height) => {
		const reply = await sim.call('POST', '/v2/black-forest-labs-flux-1-schnell/runsync', {
			body: {input: {prompt: 'a fox', width, height, image_format: format}},
		});
		expect(reply.body.status).toBe('COMPLETED');
		const url = new URL(reply.body.output.image_url as string);
		const image = await request(`${sim.url}${url.pathname}`);
		expect(image.statusCode).toBe(200);
		expect(image.headers['content-type']).toBe(format === 'png' ? 'image/png' : 'image/jpeg');
		const bytes = Buffer.from(await image.body.arrayBuffer());
		if (format === 'png') {
			expect(bytes.subarray(1, 4).toString()).toBe('PNG');
			expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([width, height]);
		} else {
			const decoded = jpeg.decode(bytes);
			expect([decoded.width, decoded.height]).toEqual([width, height]);
		}

		const missing = await request(`${sim.url}/__sim/outputs/nope.jpg`);
		expect(missing.statusCode).toBe(404);
		await missing.body.dump();
	});
});

describe('also checked', () => {
	test('policies and /status?ttl= out of bounds are 400 with a clear error', async () => {
		const reply = await sim.call('POST', `/v2/${workerful}/run`, {body: {input: {}, policy: {executionTimeout: 5000}}});
		expect(reply.status).toBe(400);
		expect(reply.body.error).toMatch(/executionTimeout/);
		for (const ttl of [9999, 8 * 24 * 3_600_000]) {
			const ttlReply = await sim.call('POST', `/v2/${workerful}/run`, {body: {input: {}, policy: {ttl}}});
			expect(ttlReply.status).toBe(400);
			expect(ttlReply.body.error).toMatch(/ttl/);
		}

		const job = await sim.run(workerful, {});
		await waitFor(async () => (await sim.status(workerful, job)).body.status !== 'IN_QUEUE', 10_000);
		const status = await sim.call('GET', `/v2/${workerful}/status/${job}?ttl=-5`);
		expect(status.status).toBe(400);
	});
});

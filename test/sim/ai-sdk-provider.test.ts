import {createRunpod} from '@runpod/ai-sdk-provider';
import {generateImage, generateText, streamText} from 'ai';
import jpeg from 'jpeg-js';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {startTestSim, type TestSim} from '../helpers/sim-client.js';

/**
The official Runpod provider for the Vercel AI SDK, a client nobody here wrote, against `podtop sim`
over real HTTP: what works against the service must work against the simulator unchanged.
*/
let sim: TestSim;
let llm: string;

beforeAll(async () => {
	sim = await startTestSim({seed: 3, speed: 20});
	const {endpoints} = (await sim.call('GET', '/__sim/endpoints')).body as {endpoints: Array<{id: string; worker: string; public: boolean}>};
	llm = endpoints.find(endpoint => endpoint.worker === 'text-generation' && !endpoint.public)!.id;
});

afterAll(async () => sim.close());

describe('@runpod/ai-sdk-provider against the simulator', () => {
	test("image generation at the provider's default size (1328×1328): the picture downloads without a key and decodes", async () => {
		const runpod = createRunpod({apiKey: sim.apiKey, baseURL: `${sim.url}/v2/black-forest-labs-flux-1-schnell`});
		const {image, providerMetadata} = await generateImage({model: runpod.image('black-forest-labs/flux-1-schnell'), prompt: 'a red fox in the snow'});
		// The provider asks for png; the answer is a real one of the requested size.
		const bytes = Buffer.from(image.uint8Array);
		expect(image.mediaType).toBe('image/png');
		expect(bytes.subarray(1, 4).toString()).toBe('PNG');
		expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([1328, 1328]);
		expect(providerMetadata.runpod).toMatchObject({images: [{url: expect.stringMatching(/\/__sim\/outputs\/\S+\.png$/), cost: 0.004_232_601_6}]});
	});

	test("a jpeg on request, through the provider's options", async () => {
		const runpod = createRunpod({apiKey: sim.apiKey, baseURL: `${sim.url}/v2/black-forest-labs-flux-1-dev`});
		const {image} = await generateImage({
			model: runpod.image('black-forest-labs/flux-1-dev'),
			prompt: 'a lighthouse',
			size: '1024x1024',
			providerOptions: {runpod: {image_format: 'jpeg'}},
		});
		const decoded = jpeg.decode(Buffer.from(image.uint8Array));
		expect([decoded.width, decoded.height]).toEqual([1024, 1024]);
	});

	test('chat', async () => {
		const runpod = createRunpod({apiKey: sim.apiKey, baseURL: `${sim.url}/v2/${llm}/openai/v1`});
		const {text, usage, finishReason} = await generateText({model: runpod('llama'), prompt: 'Say hello', maxOutputTokens: 20});
		expect(text.trim().split(/\s+/)).toHaveLength(20);
		expect(usage.outputTokens).toBe(20);
		expect(finishReason).toBe('length');
	});

	test('streamed chat', async () => {
		const runpod = createRunpod({apiKey: sim.apiKey, baseURL: `${sim.url}/v2/${llm}/openai/v1`});
		const result = streamText({model: runpod('llama'), prompt: 'Tell me about GPUs', maxOutputTokens: 40});
		const parts: string[] = [];
		for await (const part of result.textStream) {
			parts.push(part);
		}

		expect(parts.length).toBeGreaterThan(2);
		expect(parts.join('').trim().split(/\s+/)).toHaveLength(40);
		expect((await result.usage).outputTokens).toBe(40);
	});
});

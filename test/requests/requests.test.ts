import {describe, expect, test} from 'vitest';
import {listenAddress} from '../../source/commands/listen-address.js';
import {formatCost} from '../../source/format/numbers.js';
import {endpointNewForm} from '../../source/forms/endpoint-form.js';
import {portsProblem} from '../../source/requests/deploy-request.js';
import {planEndpoint} from '../../source/requests/endpoint-request.js';
import {gpuPools} from '../../source/requests/gpu-pools.js';
import {imageCost, imageInput, imageModelOf, imageProblems} from '../../source/requests/image-request.js';
import {bodyLimits, bodySizeProblem, parseJobInput, policyOf, webhookProblem} from '../../source/requests/job-request.js';

const dev = imageModelOf('black-forest-labs-flux-1-dev')!;
const schnell = imageModelOf('black-forest-labs-flux-1-schnell')!;

describe('image requests', () => {
	test('cost follows the billing rule, exactly', () => {
		expect(imageCost(dev)).toBe(0.020_971_52);
		expect(formatCost(imageCost(dev))).toBe('$0.02097152');
		expect(imageCost(schnell, 512, 768)).toBe(0.000_943_718_4);
		expect(formatCost(imageCost(schnell, 1328, 1328))).toBe('$0.0042326016');
	});

	test('each field says what is wrong with it, per model', () => {
		expect(imageProblems(dev, {prompt: 'x'})).toEqual({});
		expect(imageProblems(dev, {prompt: ' ', width: 1000, height: 1600, steps: 51, guidance: -1, seed: -2, format: 'gif'})).toEqual({
			prompt: 'is required: say what to draw',
			width: 'must be a multiple of 16 (992 or 1008)',
			height: 'must be a whole number from 256 to 1536',
			steps: 'must be a whole number from 1 to 50 on this model',
			guidance: 'must be a number from 0 to 10',
			seed: 'must be -1 (random) or a whole number ≥ 0',
			format: 'must be jpeg or png',
		});
		expect(imageProblems(schnell, {prompt: 'x', steps: 8, width: 1328, height: 256})).toEqual({});
		expect(imageProblems(schnell, {prompt: 'x', steps: 9})).toHaveProperty('steps', 'must be a whole number from 1 to 8 on this model');
	});

	test("the input uses the model's names and defaults", () => {
		expect(imageInput(schnell, {prompt: 'fox'})).toEqual({
			prompt: 'fox',
			width: 1024,
			height: 1024,
			num_inference_steps: 4,
			guidance: 3.5,
			seed: -1,
			image_format: 'jpeg',
		});
		expect(imageModelOf('echo')).toBeUndefined();
	});
});

describe('job requests', () => {
	test('input must be a JSON object', () => {
		expect(parseJobInput('{"a": 1}')).toEqual({input: {a: 1}});
		expect(parseJobInput('[1]')).toEqual({problem: expect.stringMatching(/not an array/)});
		expect(parseJobInput('null')).toEqual({problem: expect.stringMatching(/not null/)});
		expect(parseJobInput('{"a": ')).toEqual({problem: expect.stringMatching(/^is not valid JSON/)});
	});

	test('limits, policy and webhook', () => {
		expect(bodySizeProblem(bodyLimits.run, false)).toBeUndefined();
		expect(bodySizeProblem(bodyLimits.run + 1, false)).toMatch(/over the 10 MB limit of \/run \(runsync allows 20 MB\)/);
		expect(bodySizeProblem(bodyLimits.run + 1, true)).toBeUndefined();
		expect(policyOf({lowPriority: false})).toBeUndefined();
		expect(policyOf({ttl: 60_000, lowPriority: true})).toEqual({ttl: 60_000, lowPriority: true});
		expect(webhookProblem('https://example.com/hook')).toBeUndefined();
		expect(webhookProblem('ftp://example.com')).toBe('must be an http or https URL, not ftp');
		expect(webhookProblem('example.com')).toMatch(/is not a URL/);
	});
});

describe('endpoint and deploy fields', () => {
	test('GPU pools are checked against the known pools before anything is sent: the field names the unknown one, with the known ones', () => {
		const fields = {name: 'fresh', templateId: 'tpl-1', gpuIds: 'ADA_24,BOGUS_99'};
		expect(planEndpoint(fields).problems.gpuIds).toBe(`"BOGUS_99" is not a GPU pool; the pools are ${gpuPools.join(', ')}`);
		expect(planEndpoint({...fields, gpuIds: 'ada_24, H100'}).problems.gpuIds).toMatch(/^"ada_24", "H100" are not GPU pools; the pools are AMPERE_16, /);
		expect(planEndpoint({...fields, gpuIds: 'ADA_24, AMPERE_80'})).toEqual({problems: {}, changes: {...fields, gpuIds: 'ADA_24,AMPERE_80'}});
		// The form says it at the field, and sends nothing.
		const check = endpointNewForm.check({...endpointNewForm.initial, ...fields});
		expect(check.problems).toEqual({gpuIds: expect.stringMatching(/^"BOGUS_99" is not a GPU pool; the pools are /)});
		expect(check.result).toBeUndefined();
	});

	test('a port past 65535 (or 0) is out of range, not a format error: in the deploy form and --listen', () => {
		expect(portsProblem('8888/http,99999/udp')).toBe('"99999/udp": port 99999 is out of range (1 to 65535)');
		expect(portsProblem('0/tcp')).toBe('"0/tcp": port 0 is out of range (1 to 65535)');
		expect(portsProblem('88/ftp')).toBe('"88/ftp" is not PORT/http, PORT/tcp or PORT/udp (for example 8888/http,22/tcp)');
		expect(portsProblem('8888/http, 22/tcp, 65535/udp')).toBeUndefined();
		expect(() => listenAddress(':99999')).toThrow('--listen: port 99999 is out of range (0 to 65535)');
		expect(() => listenAddress('localhost')).toThrow('--listen takes HOST:PORT');
		expect(listenAddress('[::1]:9469')).toEqual({host: '::1', port: 9469});
	});
});

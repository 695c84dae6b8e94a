import {describe, expect, test} from 'vitest';
import {formatCost} from '../../source/format/numbers.js';
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

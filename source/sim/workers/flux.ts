import {runSteps, type WorkerHandler} from './handler.js';

export type FluxModel = {
	readonly slug: string;
	/** Price in units of 0.0001 $ per megapixel, so cost stays exact in integers. */
	readonly priceUnits: number;
	readonly defaultSteps: number;
	readonly maxSteps: number;
	/** Simulated seconds per step per megapixel. */
	readonly secondsPerStep: number;
};

export const fluxDev: FluxModel = {slug: 'black-forest-labs-flux-1-dev', priceUnits: 200, defaultSteps: 28, maxSteps: 50, secondsPerStep: 0.11};
export const fluxSchnell: FluxModel = {slug: 'black-forest-labs-flux-1-schnell', priceUnits: 24, defaultSteps: 4, maxSteps: 8, secondsPerStep: 0.09};

type FluxParameters = {
	readonly width: number;
	readonly height: number;
	readonly steps: number;
	readonly format: string;
};

class InvalidParameter extends Error {}

function integerParameter(input: Record<string, unknown>, name: string, fallback: number): number {
	const value = input[name] ?? fallback;
	if (typeof value !== 'number' || !Number.isInteger(value)) {
		throw new InvalidParameter(`${name} must be an integer`);
	}

	return value;
}

function dimension(input: Record<string, unknown>, name: string): number {
	const value = integerParameter(input, name, 1024);
	if (value % 16 !== 0) {
		throw new InvalidParameter(`${name} must be divisible by 16`);
	}

	if (value < 256 || value > 1536) {
		throw new InvalidParameter(`${name} must be between 256 and 1536`);
	}

	return value;
}

function parseParameters(model: FluxModel, input: Record<string, unknown>): FluxParameters {
	if (typeof input.prompt !== 'string' || input.prompt.trim() === '') {
		throw new InvalidParameter('prompt is required');
	}

	const width = dimension(input, 'width');
	const height = dimension(input, 'height');
	const steps = integerParameter(input, 'num_inference_steps', model.defaultSteps);
	if (steps < 1 || steps > model.maxSteps) {
		throw new InvalidParameter(`num_inference_steps must be between 1 and ${model.maxSteps}`);
	}

	const guidance = input.guidance ?? 3.5;
	if (typeof guidance !== 'number' || guidance < 0 || guidance > 10) {
		throw new InvalidParameter('guidance must be a number between 0 and 10');
	}

	const seed = integerParameter(input, 'seed', -1);
	if (seed < -1) {
		throw new InvalidParameter('seed must be -1 (random) or a non-negative integer');
	}

	const format = input.image_format ?? 'jpeg';
	if (format !== 'jpeg' && format !== 'png') {
		throw new InvalidParameter('image_format must be jpeg or png');
	}

	return {width, height, steps, format};
}

/** Cost in dollars: width × height / 1e6 × price, rounded up after the 10th decimal. Integer maths keeps it exact. */
export function fluxCost(model: FluxModel, width: number, height: number): number {
	return Math.ceil(width * height * model.priceUnits) / 1e10;
}

/** A public image model endpoint: validates like the service, bills per megapixel, charges nothing for a failure. */
export function createFluxWorker(model: FluxModel): WorkerHandler {
	return (input, context) => {
		let parameters: FluxParameters;
		try {
			parameters = parseParameters(model, input);
		} catch (error) {
			if (!(error instanceof InvalidParameter)) {
				throw error;
			}

			const message = `Invalid parameter: ${error.message}`;
			return runSteps(context.clock, [
				{
					afterMs: 30,
					run() {
						context.fail(message);
					},
				},
			]);
		}

		const {width, height, steps, format} = parameters;
		const megapixels = (width * height) / 1e6;
		return runSteps(context.clock, [
			{
				afterMs: 300 + steps * model.secondsPerStep * megapixels * 1000,
				run() {
					context.complete({
						image_url: `${context.baseUrl}/__sim/outputs/${context.jobId}.${format === 'png' ? 'png' : 'jpg'}`,
						cost: fluxCost(model, width, height),
					});
				},
			},
		]);
	};
}

/** A public image model of the service (FLUX.1), as its documentation describes it. */
export type ImageModel = {
	readonly endpointId: string;
	readonly title: string;
	/** Price in units of 0.0001 $ per megapixel: integer maths keeps the cost exact. */
	readonly priceUnits: number;
	readonly defaultSteps: number;
	readonly maxSteps: number;
};

export const imageModels: readonly ImageModel[] = [
	{endpointId: 'black-forest-labs-flux-1-dev', title: 'FLUX.1 dev (quality, $0.02/MP)', priceUnits: 200, defaultSteps: 28, maxSteps: 50},
	{endpointId: 'black-forest-labs-flux-1-schnell', title: 'FLUX.1 schnell (speed, $0.0024/MP)', priceUnits: 24, defaultSteps: 4, maxSteps: 8},
];

export const imageModelOf = (endpointId: string): ImageModel | undefined => imageModels.find(model => model.endpointId === endpointId);

export const imageFormats = ['jpeg', 'png'] as const;
export type ImageFormat = (typeof imageFormats)[number];

/** What the user sets; absent numbers take the model's defaults. */
export type ImageParameters = {
	readonly prompt: string;
	readonly width?: number;
	readonly height?: number;
	readonly steps?: number;
	readonly guidance?: number;
	readonly seed?: number;
	readonly format?: string;
};

export type ImageField = 'prompt' | 'width' | 'height' | 'steps' | 'guidance' | 'seed' | 'format';

export const imageDefaults = {size: 1024, guidance: 3.5, seed: -1, format: 'jpeg'} as const;

/** Why a width or height is refused: FLUX works on a 16-pixel grid, 256 to 1536. */
function sizeProblem(value: number): string | undefined {
	if (!Number.isInteger(value) || value < 256 || value > 1536) {
		return 'must be a whole number from 256 to 1536';
	}

	return value % 16 === 0 ? undefined : `must be a multiple of 16 (${Math.floor(value / 16) * 16} or ${Math.ceil(value / 16) * 16})`;
}

/** Every parameter's problem, by field; empty when the job can be sent. */
export function imageProblems(model: ImageModel, parameters: ImageParameters): Partial<Record<ImageField, string>> {
	const problems: Partial<Record<ImageField, string>> = {};
	if (parameters.prompt.trim() === '') {
		problems.prompt = 'is required: say what to draw';
	}

	for (const field of ['width', 'height'] as const) {
		const value = parameters[field];
		const problem = value === undefined ? undefined : sizeProblem(value);
		if (problem) {
			problems[field] = problem;
		}
	}

	const {steps, guidance, seed, format} = parameters;
	if (steps !== undefined && !(Number.isInteger(steps) && steps >= 1 && steps <= model.maxSteps)) {
		problems.steps = `must be a whole number from 1 to ${model.maxSteps} on this model`;
	}

	if (guidance !== undefined && !(Number.isFinite(guidance) && guidance >= 0 && guidance <= 10)) {
		problems.guidance = 'must be a number from 0 to 10';
	}

	if (seed !== undefined && !(Number.isSafeInteger(seed) && seed >= -1)) {
		problems.seed = 'must be -1 (random) or a whole number ≥ 0';
	}

	if (format !== undefined && !(imageFormats as readonly string[]).includes(format)) {
		problems.format = 'must be jpeg or png';
	}

	return problems;
}

/** The job input the model takes (its documented names), with the defaults filled in. */
export function imageInput(model: ImageModel, parameters: ImageParameters): Record<string, unknown> {
	return {
		prompt: parameters.prompt,
		width: parameters.width ?? imageDefaults.size,
		height: parameters.height ?? imageDefaults.size,
		num_inference_steps: parameters.steps ?? model.defaultSteps,
		guidance: parameters.guidance ?? imageDefaults.guidance,
		seed: parameters.seed ?? imageDefaults.seed,
		image_format: parameters.format ?? imageDefaults.format,
	};
}

/** The billed cost in dollars: width × height / 1e6 × price, rounded up after the 10th decimal (1024×1024 on dev = 0.02097152). */
export function imageCost(model: ImageModel, width: number = imageDefaults.size, height: number = imageDefaults.size): number {
	return Math.ceil(width * height * model.priceUnits) / 1e10;
}

import {UsageError} from '../lib/usage-error.js';
import {imageCost, imageInput, imageModelOf, imageModels, imageProblems, type ImageField, type ImageParameters} from '../requests/image-request.js';

export type ImageFlags = Partial<ImageParameters>;

const flagOf: Readonly<Record<ImageField, string>> = {
	prompt: '--prompt',
	width: '--width',
	height: '--height',
	steps: '--steps',
	guidance: '--guidance',
	seed: '--seed',
	format: '--format',
};

const imageOnly = ['width', 'height', 'steps', 'guidance', 'seed', 'format'] as const;

/** True when any image flag is on the command line. */
export const hasImageFlags = (flags: ImageFlags) => flags.prompt !== undefined || imageOnly.some(name => flags[name] !== undefined);

/**
The job input built from `--prompt` and the image flags. On an image model every parameter is
checked as the service checks it, and the cost is known before sending; elsewhere `--prompt` alone
makes `{"prompt": …}`.
*/
export function imageJobInput(endpointId: string, flags: ImageFlags): {readonly input: Record<string, unknown>; readonly cost?: number} {
	const model = imageModelOf(endpointId);
	if (!model) {
		const used = imageOnly.find(name => flags[name] !== undefined);
		if (used) {
			throw new UsageError(
				`${flagOf[used]} is for the image models (${imageModels.map(known => known.endpointId).join(', ')}); give other endpoints --input JSON`,
			);
		}

		return {input: {prompt: flags.prompt ?? ''}};
	}

	const parameters = {...flags, prompt: flags.prompt ?? ''};
	const problems = Object.entries(imageProblems(model, parameters)).map(([field, problem]) => `${flagOf[field as ImageField]} ${problem}`);
	if (problems.length > 0) {
		throw new UsageError(`${problems.join('; ')} (nothing was sent)`);
	}

	const input = imageInput(model, parameters);
	return {input, cost: imageCost(model, input.width as number, input.height as number)};
}

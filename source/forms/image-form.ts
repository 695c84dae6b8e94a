import {formatCost} from '../format/numbers.js';
import {imageCost, imageInput, imageModels, imageProblems, type ImageModel, type ImageParameters} from '../requests/image-request.js';
import {numberValue, type FormCheck, type FormSpec, type FormValues} from './form.js';
import type {Submission} from './submission.js';

const numberFields = ['width', 'height', 'steps', 'guidance', 'seed'] as const;

function checkImageForm(model: ImageModel, values: FormValues): FormCheck<Submission> {
	const problems: Record<string, string> = {};
	const numbers: Partial<Record<(typeof numberFields)[number], number>> = {};
	for (const name of numberFields) {
		const parsed = numberValue(values[name] ?? '');
		if (parsed.problem) {
			problems[name] = parsed.problem;
		} else {
			numbers[name] = parsed.value;
		}
	}

	const parameters: ImageParameters = {prompt: values.prompt ?? '', ...numbers, format: values.format};
	Object.assign(problems, imageProblems(model, parameters));
	const input = imageInput(model, parameters);
	const width = input.width as number;
	const height = input.height as number;
	const cost = problems.width || problems.height ? undefined : imageCost(model, width, height);
	const summary =
		cost === undefined ? 'cost: fix the size to see it' : `cost ${formatCost(cost)} (${width}×${height} = ${((width * height) / 1e6).toFixed(2)} MP)`;
	if (Object.keys(problems).length > 0) {
		return {problems, summary};
	}

	return {problems, summary, result: {request: {input}, summary: `${width}×${height} ${input.image_format as string}, ${formatCost(cost ?? 0)}`}};
}

function imageForm(model: ImageModel): FormSpec<Submission> {
	return {
		id: `image:${model.endpointId}`,
		fields: [
			{name: 'prompt', label: 'prompt', kind: 'text', hint: 'what to draw (required)'},
			{name: 'width', label: 'width', kind: 'text', hint: 'px, a multiple of 16 from 256 to 1536'},
			{name: 'height', label: 'height', kind: 'text', hint: 'px, a multiple of 16 from 256 to 1536'},
			{name: 'steps', label: 'steps', kind: 'text', hint: `1–${model.maxSteps} (default ${model.defaultSteps})`},
			{name: 'guidance', label: 'guidance', kind: 'text', hint: '0–10: how closely to follow the prompt'},
			{name: 'seed', label: 'seed', kind: 'text', hint: '-1 random, or a whole number to repeat an image'},
			{name: 'format', label: 'format', kind: 'choice', choices: ['jpeg', 'png']},
		],
		initial: {prompt: '', width: '1024', height: '1024', steps: String(model.defaultSteps), guidance: '3.5', seed: '-1', format: 'jpeg'},
		check: values => checkImageForm(model, values),
	};
}

/** The prompt form of each public image model, by endpoint id. */
export const imageForms: ReadonlyMap<string, FormSpec<Submission>> = new Map(imageModels.map(model => [model.endpointId, imageForm(model)]));

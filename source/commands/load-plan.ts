import {formatCost} from '../format/numbers.js';
import {parseSpan} from '../lib/time-spec.js';
import {UsageError} from '../lib/usage-error.js';
import {budgetLimit, defaultBudgetSettings, type BudgetSettings} from '../poll/budget-limits.js';
import {imageCost, imageModelOf, imageProblems, type ImageParameters} from '../requests/image-request.js';

const perUnit: Readonly<Record<string, number>> = {s: 1, sec: 1, m: 1 / 60, min: 1 / 60, h: 1 / 3600};

/** `5/s`, `300/m`, `0.5/s`, `2` (per second) as jobs per second; undefined for anything else. */
export function parseRate(text: string): number | undefined {
	const match = /^\s*(\d+(?:\.\d+)?)\s*(?:\/\s*(s|sec|m|min|h))?\s*$/.exec(text);
	if (!match) {
		return undefined;
	}

	const rate = Number(match[1]) * perUnit[match[2] ?? 's']!;
	return rate > 0 ? rate : undefined;
}

/** A rate as people write it: `5/s`, `0.5/s`, `30/m` under one a second. */
export function formatRate(perSecond: number): string {
	const round = (value: number) => Number(value.toFixed(2)).toString();
	return perSecond >= 1 || perSecond * 60 < 1 ? `${round(perSecond)}/s` : `${round(perSecond * 60)}/m`;
}

export type LoadFlags = {
	readonly rate?: string;
	readonly duration?: string;
	readonly jobs?: number;
	readonly concurrency?: number;
	readonly sync: boolean;
};

export type LoadShape = {
	readonly ratePerSecond: number;
	readonly jobs: number;
	readonly concurrency: number | undefined;
	readonly submitsInFlight: number;
	readonly statusInFlight: number;
	/** The most it may send a second on this route at this budget. */
	readonly maxRatePerSecond: number;
};

const defaultRate = '5/s';
const defaultDurationMs = 60_000;

/**
How many jobs, how fast and how many at once, checked against podtop's share of the route's limit
before anything is sent: a rate above it is refused (exit 2), saying the most it may send.
*/
export function loadShape(flags: LoadFlags, budget: Partial<BudgetSettings>): LoadShape {
	const ratePerSecond = parseRate(flags.rate ?? defaultRate);
	if (ratePerSecond === undefined) {
		throw new UsageError(`--rate is jobs per second or minute, like 5/s or 30/m; got "${flags.rate}"`);
	}

	if (flags.jobs !== undefined && flags.duration !== undefined) {
		throw new UsageError('give --jobs N or --duration 60s, not both');
	}

	let jobs: number;
	if (flags.jobs === undefined) {
		const durationMs = flags.duration === undefined ? defaultDurationMs : parseSpan(flags.duration);
		if (durationMs === undefined || durationMs <= 0) {
			throw new UsageError(`--duration is a span like 60s, 5m or 1h30m; got "${flags.duration}"`);
		}

		jobs = Math.max(1, Math.floor((ratePerSecond * durationMs) / 1000));
	} else {
		if (!(Number.isSafeInteger(flags.jobs) && flags.jobs >= 1)) {
			throw new UsageError(`--jobs is a whole number of jobs, 1 or more; got ${flags.jobs}`);
		}

		jobs = flags.jobs;
	}

	if (flags.concurrency !== undefined && !(Number.isSafeInteger(flags.concurrency) && flags.concurrency >= 1)) {
		throw new UsageError(`--concurrency is a whole number of jobs at once, 1 or more; got ${flags.concurrency}`);
	}

	const settings = {...defaultBudgetSettings, ...budget};
	const route = flags.sync ? 'runsync' : 'run';
	const submit = budgetLimit(route, settings);
	const maxRatePerSecond = (submit.perWindow * 1000) / submit.windowMs;
	if (ratePerSecond > maxRatePerSecond) {
		throw new UsageError(
			`--rate ${formatRate(ratePerSecond)} is over podtop's share of /${route}: at --budget ${settings.share} it may send at most ${formatRate(maxRatePerSecond)} ` +
				`(${submit.perWindow} per 10 s); lower --rate, or raise --budget (up to 1, the whole limit of your key). Nothing was sent`,
		);
	}

	// Through /runsync each job holds a request until it ends: at most the budget's concurrency at once.
	if (flags.sync && flags.concurrency !== undefined && flags.concurrency > submit.concurrency) {
		throw new UsageError(
			`--concurrency ${flags.concurrency} is over podtop's share of /runsync: at --budget ${settings.share} at most ${submit.concurrency} requests at once; lower it or raise --budget. Nothing was sent`,
		);
	}

	return {
		ratePerSecond,
		jobs,
		concurrency: flags.concurrency,
		submitsInFlight: submit.concurrency,
		statusInFlight: budgetLimit('status', settings).concurrency,
		maxRatePerSecond,
	};
}

const inputName: Readonly<Record<string, string>> = {steps: 'num_inference_steps', format: 'image_format'};

/** An image model's input as its parameters (the names the service takes). */
function imageParameters(input: Record<string, unknown>): ImageParameters {
	const number = (value: unknown) => (typeof value === 'number' ? value : undefined);
	return {
		prompt: typeof input.prompt === 'string' ? input.prompt : '',
		width: number(input.width),
		height: number(input.height),
		steps: number(input.num_inference_steps),
		guidance: number(input.guidance),
		seed: number(input.seed),
		format: typeof input.image_format === 'string' ? input.image_format : undefined,
	};
}

/**
What `jobs` of this input cost on an image model (each image billed by its size), checked as the
service checks it: a parameter it would refuse is refused here (exit 2), before anything is sent.
Undefined for other endpoints, whose cost podtop cannot know.
*/
export function loadCost(endpointId: string, input: Record<string, unknown>, jobs: number): {readonly each: number; readonly total: number} | undefined {
	const model = imageModelOf(endpointId);
	if (!model) {
		return undefined;
	}

	const parameters = imageParameters(input);
	const problems = Object.entries(imageProblems(model, parameters)).map(([field, problem]) => `${inputName[field] ?? field} ${problem}`);
	if (problems.length > 0) {
		throw new UsageError(`the input would fail on ${endpointId}: ${problems.join('; ')}. Nothing was sent`);
	}

	const each = imageCost(model, parameters.width, parameters.height);
	return {each, total: Math.ceil(each * jobs * 1e10) / 1e10};
}

/** What the run will send, in one sentence (before the y/N). */
export function loadIntent(endpointId: string, shape: LoadShape, sync: boolean, cost: ReturnType<typeof loadCost>): string {
	const seconds = shape.jobs / shape.ratePerSecond;
	const over = seconds < 90 ? `${Math.round(seconds)} s` : `${Math.round(seconds / 60)} min`;
	const atOnce = shape.concurrency === undefined ? '' : `, at most ${shape.concurrency} unfinished at once`;
	const price = cost ? `; ${shape.jobs} × ${formatCost(cost.each)} = ${formatCost(cost.total)}` : '';
	return `${shape.jobs} job${shape.jobs === 1 ? '' : 's'} to ${endpointId} at ${formatRate(shape.ratePerSecond)} (over ${over}) through /${sync ? 'runsync' : 'run'}${atOnce}, each sent once${price}`;
}

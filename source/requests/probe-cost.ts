import type {ProbeRule} from '../config/alert-rules.js';
import {imageCost, imageModelOf} from './image-request.js';

const dayMs = 86_400_000;

/** Jobs a probe rule sends each endpoint it matches in a day. */
export const probeJobsPerDay = (rule: Pick<ProbeRule, 'everyMs'>) => Math.floor(dayMs / rule.everyMs);

/** What one probe job costs in dollars when the price is known: a public image model's per-megapixel price for the input's size; undefined otherwise (an endpoint of the account bills its workers' time). */
export function probeJobCost(endpointId: string, input: Readonly<Record<string, unknown>>): number | undefined {
	const model = imageModelOf(endpointId);
	if (!model) {
		return undefined;
	}

	const size = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) ? value : undefined);
	return imageCost(model, size(input.width), size(input.height));
}

export type ProbeCostLine = {
	readonly rule: string;
	/** The endpoints it matches, when known (undefined: the account's list was not read). */
	readonly endpoints: readonly string[] | undefined;
	readonly jobsPerDayEach: number;
	/** Dollars a day for the endpoints of a known price (public image models). */
	readonly dollarsPerDay: number | undefined;
};

/** What each probe rule costs a day: jobs per endpoint matched, and dollars where the price is known. */
export function probeCosts(rules: readonly ProbeRule[], match: ((rule: ProbeRule) => readonly string[]) | undefined): ProbeCostLine[] {
	return rules.map(rule => {
		const endpoints = match?.(rule);
		const jobsPerDayEach = probeJobsPerDay(rule);
		const priced = (endpoints ?? [rule.endpoint]).flatMap(id => probeJobCost(id, rule.input) ?? []);
		return {
			rule: rule.name,
			endpoints,
			jobsPerDayEach,
			dollarsPerDay: priced.length === 0 ? undefined : priced.reduce((sum, cost) => sum + cost, 0) * jobsPerDayEach,
		};
	});
}

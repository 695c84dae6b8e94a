import {accountExpressions, identityMetric, kindLabels, metricTerms, scrapedMetric, stateMetric, type ThingKind} from './prometheus-metrics.js';

/** The label each part of a combined query is tagged with: `<summary>:<metric>` (or the account field's position). */
export const termLabel = 'podtop_term';

/** What each step's point holds, and the PromQL function that makes it from the samples in the step. */
export const summaries = [
	['min', 'min_over_time'],
	['mean', 'avg_over_time'],
	['max', 'max_over_time'],
	['last', 'last_over_time'],
] as const;
export type Summary = (typeof summaries)[number][0] | 'count' | 'state';

/** Prometheus answers at most 11,000 points a series in a range query: steps are widened to stay under this many. */
export const maxPoints = 10_000;
/** A moment's figures (throughput, failure rate, drain) compare it with the samples this long before, as the SQLite reader's ~5 min. */
export const figuresOffsetMs = 4 * 60_000;
/** The account is a sum over pods, not a stored series: in raw windows Prometheus evaluates it this often. */
export const accountRawStepMs = 15_000;

/** A PromQL string literal. */
export function promString(text: string): string {
	return `"${text
		.replaceAll('\\', '\\\\')
		.replaceAll('"', String.raw`\"`)
		.replaceAll('\n', String.raw`\n`)}"`;
}

/** A regular expression (RE2, anchored by Prometheus) that matches exactly the texts given. */
export function oneOf(texts: readonly string[]): string {
	return texts.map(text => text.replaceAll(/[.*+?^${}()|[\]\\]/g, String.raw`\$&`)).join('|');
}

/** A duration as PromQL reads it, in whole milliseconds. */
export const promDuration = (ms: number): string => `${Math.max(1, Math.round(ms))}ms`;

/** Tags a part of a combined query, so its series can be told apart in the answer. */
const tagged = (expression: string, term: string): string => `label_replace(${expression}, ${promString(termLabel)}, ${promString(term)}, "", "")`;

const keyMatcher = (kind: ThingKind, by: 'key' | 'name', keys: readonly string[]) => `${kindLabels[kind][by]}=~${promString(oneOf(keys))}`;

/** Every metric a kind's series are read from: its fields, its identity (the count) and its state. */
export function kindMetrics(kind: ThingKind): string[] {
	return [...new Set([...metricTerms[kind].map(term => term.metric), identityMetric[kind], ...(stateMetric[kind] ? [stateMetric[kind].metric] : [])])];
}

/** The raw samples of the things (by id) in the `spanMs` before the query's time: one selector, every metric of the kind. */
export function rawQuery(kind: ThingKind, ids: readonly string[], spanMs: number): string {
	return `{__name__=~${promString(kindMetrics(kind).join('|'))},${keyMatcher(kind, 'key', ids)}}[${promDuration(spanMs)}]`;
}

/**
One range query for the things (by id) at a step: each metric's min, mean, max and last over the
step before each evaluation, how many scrapes the step holds (the identity metric's count) and the
state at its end (staleness honoured: a pod's status series ends when its status changes).
*/
export function stepQuery(kind: ThingKind, ids: readonly string[], stepMs: number): string {
	const selector = (metric: string) => `${metric}{${keyMatcher(kind, 'key', ids)}}`;
	const window = `[${promDuration(stepMs)}]`;
	const parts = metricTerms[kind].flatMap(({metric}) =>
		summaries.map(([summary, over]) => tagged(`${over}(${selector(metric)}${window})`, `${summary}:${metric}`)),
	);
	parts.push(tagged(`count_over_time(${selector(identityMetric[kind])}${window})`, `count:${identityMetric[kind]}`));
	const state = stateMetric[kind];
	if (state) {
		parts.push(tagged(selector(state.metric), `state:${state.metric}`));
	}

	return parts.join(' or ');
}

/** The account's fields at each evaluation (raw windows): each expression as it stood then. */
export function accountRawQuery(): string {
	return accountExpressions.flatMap((expression, index) => (expression ? [tagged(`(${expression})`, `last:${index}`)] : [])).join(' or ');
}

/**
The account's fields per step: min, mean, max and last by a subquery every `resolutionMs` through
the step (the last one in it even when the exporter stopped before the step's end), and the
scrapes the step holds.
*/
export function accountStepQuery(stepMs: number, resolutionMs: number): string {
	const window = promDuration(stepMs);
	const parts = accountExpressions.flatMap((expression, index) => {
		if (!expression) {
			return [];
		}

		return summaries.map(([summary, over]) => tagged(`${over}((${expression})[${window}:${promDuration(resolutionMs)}])`, `${summary}:${index}`));
	});
	parts.push(tagged(`max(count_over_time(${scrapedMetric}[${window}]))`, 'count:account'));
	return parts.join(' or ');
}

/** A subquery's resolution for an account step: about 20 evaluations a step, never finer than 15 s. */
export const accountResolution = (stepMs: number): number => Math.max(accountRawStepMs, Math.round(stepMs / 20 / 1000) * 1000);

/** The series API's matchers that find things of a kind by id or by name. */
export function resolveMatchers(kind: ThingKind, keys: readonly string[]): string[] {
	return [`${identityMetric[kind]}{${keyMatcher(kind, 'key', keys)}}`, `${identityMetric[kind]}{${keyMatcher(kind, 'name', keys)}}`];
}

/**
The account at a moment, as one instant query: every series of the things (as they stood within
Prometheus' lookback, 5 min unless configured), when each endpoint's health was sampled, the
endpoint counters `figuresOffsetMs` earlier (for throughput and failure rate) and when they were
sampled, and the newest scrape.
*/
export function stateQuery(): string {
	const names = (['endpoint', 'pod', 'gpu'] as const).flatMap(kind => kindMetrics(kind));
	names.push('podtop_pod_uptime_seconds');
	const queue = identityMetric.endpoint;
	const health = metricTerms.endpoint.map(term => term.metric).filter(metric => !metric.startsWith('podtop_endpoint_workers_'));
	const offset = `offset ${promDuration(figuresOffsetMs)}`;
	return [
		`{__name__=~${promString(names.join('|'))}}`,
		tagged(`timestamp(${queue})`, 'at'),
		tagged(`{__name__=~${promString(health.join('|'))}} ${offset}`, 'before'),
		tagged(`timestamp(${queue} ${offset})`, 'before_at'),
		tagged(`max(timestamp(${scrapedMetric}))`, 'scraped'),
	].join(' or ');
}

/** Which things of a kind are served now (an instant query: their current names). */
export const currentThingsQuery = (kinds: readonly ThingKind[]): string => `{__name__=~${promString(kinds.map(kind => identityMetric[kind]).join('|'))}}`;

/** The newest scrape (within the lookback). */
export const newestQuery = `max(timestamp(${scrapedMetric}))`;
/** Whether any scrape fell in each step (a coarse look for the oldest data). */
export const scrapesQuery = (stepMs: number): string => `count(count_over_time(${scrapedMetric}[${promDuration(stepMs)}]))`;
/** Every scrape in the span before the query's time (the exact oldest or newest). */
export const scrapedSamplesQuery = (spanMs: number): string => `${scrapedMetric}[${promDuration(spanMs)}]`;

/** The evaluation times of a step query: the end of each step-wide bucket (aligned to the epoch), from the one holding `from` to the one holding `to`. */
export function stepWindow(from: number, to: number, stepMs: number): {readonly start: number; readonly end: number} {
	return {start: Math.floor(from / stepMs) * stepMs + stepMs, end: Math.floor(to / stepMs) * stepMs + stepMs};
}

/** The step asked for, or a wider one (whole minutes) when the range would hold more than `maxPoints` of them. */
export function fitStep(from: number, to: number, stepMs: number): number {
	const least = (to - from) / maxPoints;
	return stepMs >= least ? stepMs : Math.ceil(least / 60_000) * 60_000;
}

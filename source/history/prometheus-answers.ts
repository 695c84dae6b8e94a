import {ApiError} from '../api/errors.js';
import {kindFields} from './fields.js';
import type {SeriesPoint} from './history-types.js';
import {identityMetric, kindLabels, type Labels, stateMetric, termOf, type ThingKind} from './prometheus-metrics.js';
import {termLabel, type Summary} from './prometheus-queries.js';

export type VectorSample = {readonly metric: Labels; readonly value: readonly [number, string]};
export type MatrixSeries = {readonly metric: Labels; readonly values: ReadonlyArray<readonly [number, string]>};

/** A thing's points as read from an answer, with the name it was last served under. */
export type ThingPoints = {readonly key: string; readonly name: string; readonly points: readonly SeriesPoint[]};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isPair = (value: unknown): value is [number, string] => Array.isArray(value) && typeof value[0] === 'number' && typeof value[1] === 'string';
const isLabels = (value: unknown): value is Labels => isObject(value) && Object.values(value).every(each => typeof each === 'string');

/** The `data` of a successful answer holds a vector: its samples (anything else is the server's fault, said so). */
export function vectorOf(data: unknown, what: string): VectorSample[] {
	if (!isObject(data) || data.resultType !== 'vector' || !Array.isArray(data.result)) {
		throw new ApiError('server', `${what}: the answer was not an instant vector`);
	}

	return data.result.filter((sample): sample is VectorSample => isObject(sample) && isLabels(sample.metric) && isPair(sample.value));
}

/** The `data` of a successful answer holds a matrix: its series. */
export function matrixOf(data: unknown, what: string): MatrixSeries[] {
	if (!isObject(data) || data.resultType !== 'matrix' || !Array.isArray(data.result)) {
		throw new ApiError('server', `${what}: the answer was not a range vector`);
	}

	return data.result.filter(
		(series): series is MatrixSeries =>
			isObject(series) && isLabels(series.metric) && Array.isArray(series.values) && series.values.every(each => isPair(each)),
	);
}

/** A sample's value: Prometheus writes numbers as text, NaN and ±Inf included (those are unknown here). */
export function sampleValue(text: string): number | null {
	const value = Number(text);
	return text.trim() !== '' && Number.isFinite(value) ? value : null;
}

/** Seconds (Prometheus) to milliseconds, exact to the millisecond. */
export const fromSeconds = (seconds: number): number => Math.round(seconds * 1000);

type Point = {
	at: number;
	count: number | undefined;
	state: string | undefined;
	min: Array<number | null>;
	mean: Array<number | null>;
	max: Array<number | null>;
	last: Array<number | null>;
};
type Thing = {name: string; nameAt: number; points: Map<number, Point>};

/** Points gathered by thing and time; two series saying the same (two scrapes of one account) merge: min of mins, max of maxes, the first of the rest, counts added. */
class Gathered {
	readonly things = new Map<string, Thing>();

	point(key: string, name: string | undefined, at: number): Point {
		let thing = this.things.get(key);
		if (!thing) {
			thing = {name: name ?? key, nameAt: Number.NEGATIVE_INFINITY, points: new Map()};
			this.things.set(key, thing);
		}

		if (name && at >= thing.nameAt) {
			thing.name = name;
			thing.nameAt = at;
		}

		let point = thing.points.get(at);
		if (!point) {
			point = {at, count: undefined, state: undefined, min: [], mean: [], max: [], last: []};
			thing.points.set(at, point);
		}

		return point;
	}

	set(point: Point, summary: Exclude<Summary, 'count' | 'state'>, position: number, value: number | null): void {
		const values = point[summary];
		while (values.length <= position) {
			values.push(null);
		}

		const current = values[position] ?? null;
		if (current === null) {
			values[position] = value;
		} else if (value !== null && summary !== 'mean' && summary !== 'last') {
			values[position] = summary === 'min' ? Math.min(current, value) : Math.max(current, value);
		}
	}

	/** The points, oldest first, each padded to `width` positions at least (and past `pairsFrom`, to whole pairs: a pod's GPUs). */
	done(width: number, raw: boolean, pairsFrom = Number.POSITIVE_INFINITY): ThingPoints[] {
		return [...this.things].map(([key, thing]) => ({
			key,
			name: thing.name,
			points: [...thing.points.values()]
				.sort((a, b) => a.at - b.at)
				.map(point => {
					const longest = Math.max(width, point.min.length, point.mean.length, point.max.length, point.last.length);
					const length = longest > pairsFrom ? pairsFrom + Math.ceil((longest - pairsFrom) / 2) * 2 : longest;
					const pad = (values: Array<number | null>) => Array.from({length}, (_, index) => values[index] ?? null);
					const last = pad(point.last);
					return raw
						? {at: point.at, count: 1, state: point.state, min: last, mean: last, max: last, last}
						: {at: point.at, count: point.count ?? 0, state: point.state, min: pad(point.min), mean: pad(point.mean), max: pad(point.max), last};
				}),
		}));
	}
}

/** Raw samples (a range selector's matrix, metric names kept) as one point a scrape per thing: all of a scrape's samples share its time. */
export function rawPoints(kind: ThingKind, matrix: readonly MatrixSeries[]): ThingPoints[] {
	const gathered = new Gathered();
	const labels = kindLabels[kind];
	const state = stateMetric[kind];
	for (const {metric, values} of matrix) {
		const key = metric[labels.key];
		const name = metric.__name__ ?? '';
		const position = termOf(kind, name)?.position(metric);
		if (!key) {
			continue;
		}

		for (const [seconds, text] of values) {
			const point = gathered.point(key, metric[labels.name], fromSeconds(seconds));
			const value = sampleValue(text);
			if (position !== undefined) {
				gathered.set(point, 'last', position, value);
			}

			if (state?.metric === name) {
				point.state ??= state.state(metric, value);
			}
		}
	}

	return gathered.done(kindFields[kind].length, true, kind === 'pod' ? kindFields.pod.length : undefined);
}

/** Splits a part's tag, `<summary>:<metric>`. */
function tagOf(metric: Labels): {readonly summary: Summary; readonly name: string} | undefined {
	const tag = metric[termLabel] ?? '';
	const colon = tag.indexOf(':');
	const summary = tag.slice(0, colon);
	return colon > 0 && ['min', 'mean', 'max', 'last', 'count', 'state'].includes(summary)
		? {summary: summary as Summary, name: tag.slice(colon + 1)}
		: undefined;
}

/** A step query's matrix as points per thing: each evaluation closes the step-wide bucket before it, so a point's `at` is the bucket's start. */
export function stepPoints(kind: ThingKind, matrix: readonly MatrixSeries[], stepMs: number): ThingPoints[] {
	const gathered = new Gathered();
	const labels = kindLabels[kind];
	const state = stateMetric[kind];
	for (const {metric, values} of matrix) {
		const key = metric[labels.key];
		const tag = tagOf(metric);
		if (!key || !tag) {
			continue;
		}

		const position = termOf(kind, tag.name)?.position(metric);
		for (const [seconds, text] of values) {
			const point = gathered.point(key, metric[labels.name], fromSeconds(seconds) - stepMs);
			const value = sampleValue(text);
			if (tag.summary === 'count' && tag.name === identityMetric[kind]) {
				point.count = (point.count ?? 0) + (value ?? 0);
			} else if (tag.summary === 'state' && tag.name === state?.metric) {
				point.state ??= state.state(metric, value);
			} else if (tag.summary !== 'count' && tag.summary !== 'state' && position !== undefined) {
				gathered.set(point, tag.summary, position, value);
			}
		}
	}

	return gathered.done(kindFields[kind].length, false, kind === 'pod' ? kindFields.pod.length : undefined);
}

/** The account's points: a step query's (each field's summaries, the scrapes a step holds) or a raw window's (each field as it stood). */
export function accountPoints(matrix: readonly MatrixSeries[], stepMs: number | undefined): SeriesPoint[] {
	const gathered = new Gathered();
	for (const {metric, values} of matrix) {
		const tag = tagOf(metric);
		const position = Number(tag?.name);
		for (const [seconds, text] of values) {
			const point = gathered.point('account', 'account', fromSeconds(seconds) - (stepMs ?? 0));
			const value = sampleValue(text);
			if (tag?.summary === 'count') {
				point.count = Math.max(point.count ?? 0, value ?? 0);
			} else if (tag && tag.summary !== 'state' && Number.isInteger(position)) {
				gathered.set(point, tag.summary, position, value);
			}
		}
	}

	return gathered.done(kindFields.account.length, stepMs === undefined)[0]?.points.slice() ?? [];
}

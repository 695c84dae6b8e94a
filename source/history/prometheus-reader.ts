import {UsageError} from '../lib/usage-error.js';
import {parseSpan} from '../lib/time-spec.js';
import {fieldNames} from './fields.js';
import type {HistoryInfo, HistoryReader, KnownThing, Series, SeriesKind, SeriesPoint, SeriesQuery, Tier} from './history-types.js';
import {mergePoints} from './merge-points.js';
import {accountPoints, matrixOf, rawPoints, stepPoints, type ThingPoints, vectorOf} from './prometheus-answers.js';
import {createPrometheusClient, defaultTimeoutMs} from './prometheus-client.js';
import {identityMetric, kindLabels, type ThingKind} from './prometheus-metrics.js';
import {
	accountRawQuery,
	accountRawStepMs,
	accountResolution,
	accountStepQuery,
	currentThingsQuery,
	fitStep,
	promDuration,
	rawQuery,
	resolveMatchers,
	stateQuery,
	stepQuery,
	stepWindow,
} from './prometheus-queries.js';
import {pastAccount} from './prometheus-state.js';
import {spanReader} from './prometheus-span.js';

export type PrometheusReaderOptions = {
	/** The Prometheus (or Thanos, Mimir) base URL; credentials in it are never shown. */
	readonly url: string;
	readonly timeoutMs?: number;
	/** Answers larger than this are refused (a range too long for its step). */
	readonly maxBytes?: number;
	readonly now?: () => number;
};

/** Without a step (or with one under a minute), windows up to this long read every scrape; longer ones are summarised a step at a time. */
export const rawWindowMs = 6 * 3_600_000;
const minuteMs = 60_000;
const hourMs = 3_600_000;

/**
History read from a Prometheus that scrapes `podtop export`, by PromQL over the exporter's metric
names (prometheus-metrics.ts maps each kind's fields to them). `series` reads every scrape (tier
raw) in windows up to 6 h without a step or with one under a minute, merged to the step when there
is one; otherwise one range query at the step (widened so a series holds at most 10,000 points),
each point the step's min, mean, max and last (`*_over_time`) and the scrapes it holds, tier
'minute' for steps under an hour and 'hour' from an hour. The account is a sum over pods, not a
stored series: in raw windows Prometheus evaluates it every 15 s (the series' step says so), in
steps by subqueries. `stateAt` is one instant query. There is
no timeline (`events` says so) and no alert history; names pass the exporter's sanitiser and are
shown through podtop's again.
*/
export function createPrometheusReader({url, timeoutMs = defaultTimeoutMs, maxBytes, now = Date.now}: PrometheusReaderOptions): HistoryReader {
	const client = createPrometheusClient({url, timeoutMs, maxBytes});
	/** Prometheus stops a query a little before this process gives up on it, and says so. */
	const timeout = promDuration(Math.max(1000, timeoutMs - 2000));
	const seconds = (ms: number) => String(ms / 1000);
	const instant = async (query: string, at: number) => client.post('/api/v1/query', {query, time: seconds(at), timeout});
	const range = async (query: string, start: number, end: number, step: number) =>
		matrixOf(await client.post('/api/v1/query_range', {query, start: seconds(start), end: seconds(end), step: seconds(step), timeout}), 'Prometheus');
	const seriesApi = async (matchers: readonly string[], start?: number, end?: number) => {
		const data = await client.post('/api/v1/series', {
			'match[]': matchers,
			...(start === undefined ? {} : {start: seconds(start)}),
			...(end === undefined ? {} : {end: seconds(end)}),
		});
		return Array.isArray(data) ? (data as Array<Record<string, string>>) : [];
	};

	const spans = spanReader({instant, range, now});

	/** Each key's candidate ids: itself when it is an id Prometheus has, else the ids served under that name. */
	const resolve = async (kind: ThingKind, keys: readonly string[], from: number, to: number) => {
		const found = await seriesApi(resolveMatchers(kind, keys), from - 5 * minuteMs, to);
		const {key: keyLabel, name: nameLabel} = kindLabels[kind];
		return new Map(
			keys.map(key => {
				const byId = found.some(labels => labels[keyLabel] === key);
				const byName = [...new Set(found.filter(labels => labels[nameLabel] === key).map(labels => labels[keyLabel]!))];
				return [key, {ids: byId ? [key] : byName, name: found.find(labels => labels[keyLabel] === (byId ? key : byName[0]))?.[nameLabel]}];
			}),
		);
	};

	const thingSeries = async ({kind, keys, from, to, step}: SeriesQuery & {kind: ThingKind}): Promise<Series[]> => {
		const candidates = await resolve(kind, keys, from, to);
		const ids = [...new Set([...candidates.values()].flatMap(each => each.ids))];
		if (ids.length === 0) {
			return [];
		}

		let read: ThingPoints[];
		let tier: Tier;
		let width: number;
		if ((step === undefined || step < minuteMs) && to - from <= rawWindowMs) {
			const matrix = matrixOf(await instant(rawQuery(kind, ids, to - from), to), 'Prometheus');
			read = rawPoints(kind, matrix).map(thing => {
				const points = thing.points.filter(point => point.at >= from);
				return {...thing, points: step ? mergePoints(points, step) : points};
			});
			tier = 'raw';
			width = step ?? 0;
		} else {
			width = fitStep(from, to, Math.max(step ?? minuteMs, minuteMs));
			const {start, end} = stepWindow(from, to, width);
			read = stepPoints(kind, await range(stepQuery(kind, ids, width), start, end, width), width);
			tier = width < hourMs ? 'minute' : 'hour';
		}

		const byId = new Map(read.map(thing => [thing.key, thing]));
		const newest = (id: string) => byId.get(id)?.points.at(-1)?.at ?? Number.NEGATIVE_INFINITY;
		return keys.flatMap(key => {
			const {ids: choices, name} = candidates.get(key)!;
			// A name served by several ids over time: the one seen last.
			const id = choices.toSorted((a, b) => newest(b) - newest(a))[0];
			if (id === undefined) {
				return [];
			}

			const thing = byId.get(id);
			const points = thing?.points ?? [];
			return [{kind, key: id, name: thing?.name ?? name ?? id, deletedAt: undefined, fields: fieldNames(kind, widest(points)), tier, step: width, points}];
		});
	};

	const accountSeries = async ({from, to, step}: SeriesQuery): Promise<Series[]> => {
		let points: SeriesPoint[];
		let tier: Tier;
		let width: number;
		if ((step === undefined || step < minuteMs) && to - from <= rawWindowMs) {
			width = fitStep(from, to, accountRawStepMs);
			const evaluated = accountPoints(await range(accountRawQuery(), from, to, width), undefined);
			points = step ? mergePoints(evaluated, step) : evaluated;
			tier = 'raw';
			width = step ?? width;
		} else {
			width = fitStep(from, to, Math.max(step ?? minuteMs, minuteMs));
			const {start, end} = stepWindow(from, to, width);
			points = accountPoints(await range(accountStepQuery(width, accountResolution(width)), start, end, width), width);
			tier = width < hourMs ? 'minute' : 'hour';
		}

		return points.length === 0
			? []
			: [{kind: 'account', key: 'account', name: 'account', deletedAt: undefined, fields: fieldNames('account', widest(points)), tier, step: width, points}];
	};

	const things = async (kind?: SeriesKind): Promise<KnownThing[]> => {
		const kinds = (kind === undefined ? (['endpoint', 'pod', 'gpu'] as const) : kind === 'account' ? [] : [kind]) satisfies readonly ThingKind[];
		const span = await spans.span();
		if (!span) {
			return [];
		}

		const [listed, current] = await Promise.all([
			kinds.length > 0 ? seriesApi(kinds.map(each => identityMetric[each])) : [],
			kinds.length > 0 ? instant(currentThingsQuery(kinds), now()).then(data => vectorOf(data, 'Prometheus')) : [],
		]);
		const known = new Map<string, KnownThing>();
		const add = (labels: Readonly<Record<string, string>>, replace: boolean) => {
			const thingKind = kinds.find(each => labels.__name__ === identityMetric[each]);
			const key = thingKind ? labels[kindLabels[thingKind].key] : undefined;
			if (thingKind && key && (replace || !known.has(`${thingKind}\n${key}`))) {
				// Prometheus says which things it holds, not when each began or ended: the span of all it holds.
				const name = labels[kindLabels[thingKind].name] || key;
				known.set(`${thingKind}\n${key}`, {kind: thingKind, key, name, firstAt: span.from, lastAt: span.to, deletedAt: undefined});
			}
		};

		for (const labels of listed) {
			add(labels, false);
		}

		for (const {metric} of current) {
			add(metric, true);
		}

		const account: KnownThing[] =
			kind === undefined || kind === 'account'
				? [{kind: 'account', key: 'account', name: 'account', firstAt: span.from, lastAt: span.to, deletedAt: undefined}]
				: [];
		return [...account, ...[...known.values()].sort((a, b) => a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name))];
	};

	return {
		kind: 'prometheus',
		async series(query) {
			const {kind, keys} = query;
			if (keys.length === 0) {
				return [];
			}

			return kind === 'account' ? (keys.includes('account') ? accountSeries(query) : []) : thingSeries({...query, kind});
		},
		async stateAt(at) {
			return pastAccount(vectorOf(await instant(stateQuery(), at), 'Prometheus'), at);
		},
		async events() {
			throw new UsageError(
				`events need the local store: a Prometheus (${client.source}) keeps the figures but no timeline of alerts, writes and status changes; drop --history-source to read them`,
			);
		},
		things,
		span: async () => spans.span(),
		async info(): Promise<HistoryInfo> {
			const [span, retention, series] = await Promise.all([
				spans.span(),
				client.get('/api/v1/status/runtimeinfo').then(retentionOf, () => undefined),
				things().then(known => known.length),
			]);
			return {
				source: client.source,
				kind: 'prometheus',
				bytes: undefined,
				// One tier: what Prometheus keeps, as scraped, for its retention (0 when it does not say, as Thanos and Mimir do not).
				tiers: [{tier: 'raw', retentionMs: retention ?? 0, from: span?.from, to: span?.to}],
				series,
				events: undefined,
				integrity: undefined,
			};
		},
		close: async () => client.close(),
	};
}

/** The most positions any point holds (a pod's grow with its GPUs). */
const widest = (points: readonly SeriesPoint[]): number => points.reduce((most, point) => Math.max(most, point.last.length, point.min.length), 0);

/** Prometheus's retention (`15d`, or `15d or 512MiB` with a size limit too), when it says one. */
function retentionOf(data: unknown): number | undefined {
	const text = (data as {storageRetention?: unknown} | undefined)?.storageRetention;
	return typeof text === 'string' ? parseSpan(text.split(/\s+or\s+/)[0] ?? '') : undefined;
}

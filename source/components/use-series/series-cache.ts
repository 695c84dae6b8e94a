import {chartGrid, type ChartGrid, pointStep} from '../../format/chart-grid.js';
import type {HistoryReader, Series, SeriesKind, SeriesQuery} from '../../history/history-types.js';
import {keyframeMs} from '../../history/keyframe.js';

/** What a chart (or a column of rows) wants of history: some things of one kind, over a window, in so many columns. */
export type SeriesRequest = {
	readonly kind: SeriesKind;
	readonly keys: readonly string[];
	readonly windowMs: number;
	/** How many values across the chart draws (braille: two a cell). */
	readonly columns: number;
	/** The moment the window ends at: the time cursor; undefined is now (live). */
	readonly at: number | undefined;
};

/** History's answer, with the grid it is drawn over: the points reach one column and a hold further left, to seed carries and rates. */
export type SeriesAnswer = {
	readonly key: string;
	readonly grid: ChartGrid;
	readonly windowMs: number;
	/** The step history was asked for (it chose the tier from it). */
	readonly pointMs: number;
	/** How long an unchanged value is carried over columns without a point (history writes changes, and everything once a minute). */
	readonly holdMs: number;
	readonly byKey: ReadonlyMap<string, Series>;
	readonly askedAt: number;
	readonly live: boolean;
};

/** How many answers a reader's cache keeps (the least recently used go first). */
const cacheLimit = 64;

/** A live chart asks again at most this often, and never more often than its columns move. */
export const refreshMs = (request: Pick<SeriesRequest, 'windowMs' | 'columns'>) => Math.max(5000, Math.min(60_000, request.windowMs / request.columns));

export function requestKey(request: SeriesRequest): string {
	return [request.kind, request.windowMs, request.columns, request.at ?? 'live', [...request.keys].sort().join('\n')].join('|');
}

type Entry = {answer?: SeriesAnswer; pending?: Promise<SeriesAnswer>};

export type SeriesCache = {
	/** The answer kept for this request, however old. */
	readonly peek: (key: string) => SeriesAnswer | undefined;
	/** Asks history (one range request for all the keys); asks already on their way are shared. */
	readonly ask: (request: SeriesRequest, now?: number) => Promise<SeriesAnswer>;
	/**
	Asks a reader that answers at once (`seriesNow`), and keeps the answer; undefined from one that does
	not, or when it failed (once for a request: `ask` asks it again and says why).
	*/
	readonly askNow: (request: SeriesRequest, now?: number) => SeriesAnswer | undefined;
	readonly inFlight: (key: string) => boolean;
};

function createSeriesCache(reader: HistoryReader): SeriesCache {
	const entries = new Map<string, Entry>();
	/** Requests a reader failed to answer at once: not asked at once again (each render would). */
	const failedAtOnce = new Set<string>();
	const touch = (key: string, entry: Entry) => {
		entries.delete(key);
		entries.set(key, entry);
		while (entries.size > cacheLimit) {
			entries.delete(entries.keys().next().value!);
		}
	};

	/** What to ask history for `request`, and how its answer is made of the series. */
	const plan = (request: SeriesRequest, now: number) => {
		const key = requestKey(request);
		const grid = chartGrid(request.windowMs, request.columns, request.at ?? now);
		const pointMs = pointStep(grid.columnMs);
		const holdMs = pointMs + keyframeMs + 30_000;
		const query: SeriesQuery = {kind: request.kind, keys: request.keys, from: grid.start - grid.columnMs - holdMs, to: request.at ?? now, step: pointMs};
		const answer = (series: readonly Series[]): SeriesAnswer => ({
			key,
			grid,
			windowMs: request.windowMs,
			pointMs,
			holdMs,
			byKey: new Map(series.map(each => [each.key, each])),
			askedAt: now,
			live: request.at === undefined,
		});
		return {key, query, answer};
	};

	return {
		peek: key => entries.get(key)?.answer,
		inFlight: key => entries.get(key)?.pending !== undefined,
		async ask(request, now = Date.now()) {
			const {key, query, answer} = plan(request, now);
			const entry = entries.get(key) ?? {};
			if (entry.pending) {
				return entry.pending;
			}

			const pending = (async () => {
				try {
					entry.answer = answer(await reader.series(query));
					return entry.answer;
				} finally {
					entry.pending = undefined;
				}
			})();
			entry.pending = pending;
			touch(key, entry);
			return pending;
		},
		askNow(request, now = Date.now()) {
			const {key, query, answer} = plan(request, now);
			if (!reader.seriesNow || failedAtOnce.has(key)) {
				return undefined;
			}

			const entry = entries.get(key) ?? {};
			try {
				entry.answer = answer(reader.seriesNow(query));
			} catch {
				failedAtOnce.add(key);
				return undefined;
			}

			touch(key, entry);
			return entry.answer;
		},
	};
}

const caches = new WeakMap<HistoryReader, SeriesCache>();

/** The one cache of a reader's answers, shared by every chart on screen (the list and the details ask the same ranges). */
export function seriesCache(reader: HistoryReader): SeriesCache {
	let cache = caches.get(reader);
	if (!cache) {
		cache = createSeriesCache(reader);
		caches.set(reader, cache);
	}

	return cache;
}

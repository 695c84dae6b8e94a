import {fromSeconds, matrixOf, type MatrixSeries, sampleValue, vectorOf} from './prometheus-answers.js';
import {newestQuery, scrapedSamplesQuery, scrapesQuery} from './prometheus-queries.js';

type Span = {readonly from: number; readonly to: number};

type Options = {
	readonly instant: (query: string, at: number) => Promise<unknown>;
	readonly range: (query: string, start: number, end: number, step: number) => Promise<MatrixSeries[]>;
	readonly now: () => number;
};

/** How far back the oldest scrape is looked for (Prometheus keeps 15 days unless told; Thanos and Mimir keep longer). */
export const spanLookbackMs = 2 * 365 * 86_400_000;
/** The coarse look splits the lookback into this many steps. */
const coarseSteps = 500;
/** A span is asked for once in this long at most (it takes four to six queries). */
const cacheMs = 30_000;

/**
The span Prometheus holds of podtop, from the exporter's own series (one per source, every scrape):
the newest scrape by one instant query; the oldest by a coarse range query over the lookback (which
step first holds a scrape), a finer one over that step, and the samples of the finer step found.
Undefined when it holds none.
*/
export function spanReader({instant, range, now}: Options): {readonly span: () => Promise<Span | undefined>} {
	let cached: {readonly at: number; readonly span: Promise<Span | undefined>} | undefined;

	/** The evaluation times, `count` steps up to `end` (the last at `end`), whose step (the `step` before each) holds a scrape. */
	const stepsWithScrapes = async (end: number, count: number, step: number) =>
		((await range(scrapesQuery(step), end - count * step, end, step))[0]?.values ?? [])
			.filter(([, text]) => (sampleValue(text) ?? 0) > 0)
			.map(([seconds]) => fromSeconds(seconds));

	const scrapesIn = async (at: number, spanMs: number) =>
		matrixOf(await instant(scrapedSamplesQuery(spanMs), at), 'Prometheus').flatMap(series => series.values.map(([seconds]) => fromSeconds(seconds)));

	/** The first (or last) scrape in the step before `at`: a finer look at that step, then its samples. */
	const edge = async (at: number, step: number, which: 'first' | 'last') => {
		const fine = Math.max(1000, Math.ceil(step / coarseSteps / 1000) * 1000);
		const steps = await stepsWithScrapes(at, Math.ceil(step / fine), fine);
		const found = which === 'first' ? steps[0] : steps.at(-1);
		const times = found === undefined ? [] : await scrapesIn(found, fine);
		return times.length === 0 ? undefined : times.reduce((best, time) => (which === 'first' ? Math.min(best, time) : Math.max(best, time)));
	};

	const read = async (): Promise<Span | undefined> => {
		const end = now();
		const step = Math.ceil(spanLookbackMs / coarseSteps / 1000) * 1000;
		const [newest, steps] = await Promise.all([
			instant(newestQuery, end).then(data => sampleValue(vectorOf(data, 'Prometheus')[0]?.value[1] ?? '')),
			stepsWithScrapes(end, coarseSteps, step),
		]);
		const first = steps[0];
		const last = steps.at(-1);
		if (first === undefined || last === undefined) {
			return undefined;
		}

		// The newest scrape is within the lookback (5 min) unless the exporter stopped: then it is in the last step that held one.
		const [from, to] = await Promise.all([edge(first, step, 'first'), newest === null ? edge(last, step, 'last') : fromSeconds(newest)]);
		return from === undefined || to === undefined ? undefined : {from, to};
	};

	return {
		async span() {
			if (!cached || now() - cached.at > cacheMs) {
				cached = {at: now(), span: read()};
				cached.span.catch(() => {
					cached = undefined;
				});
			}

			return cached.span;
		},
	};
}

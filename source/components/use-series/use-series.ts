import {useEffect, useMemo, useRef, useState} from 'react';
import {sanitizeLine} from '../../format/sanitize.js';
import type {Sample} from '../../history/fields.js';
import {useServices} from '../services.js';
import {withCurrent} from './live-tail.js';
import {refreshMs, requestKey, seriesCache, type SeriesAnswer, type SeriesRequest} from './series-cache.js';

export type SeriesState = {
	/** The answer for this request, or while it is on its way the one shown before it (never a blank). */
	readonly answer: SeriesAnswer | undefined;
	/** Whether there is history to read: false, draw from the store's in-memory histories (`--no-history`, recording off). */
	readonly recorded: boolean;
	/** The answer shown is for another request (a window or moment no longer shown): the right one is on its way. */
	readonly waiting: boolean;
	readonly error: string | undefined;
};

/** A live chart waits this long after a poll before asking, so the recorder has written it. */
const afterPollMs = 150;

/** The history's `ready` promises seen settled (the demo records its simulated past before anything is read). */
const settled = new WeakSet<Promise<void>>();
function isSettled(ready: Promise<void>): boolean {
	if (!settled.has(ready)) {
		void ready.then(() => settled.add(ready));
		return false;
	}

	return true;
}

type Options = {
	/**
	Read within the render that asks, when the history can answer at once (the local file): a chart
	the user opened or moved (window, time cursor) is drawn in that key's frame, not a frame later.
	*/
	readonly atOnce?: boolean;
};

/**
A chart's series from history: one range request per window (all the keys together, so the rows on
screen are one batch), answers cached and shared between charts, the last answer shown while a new
one is on its way, and answers for a window or moment no longer shown dropped. Live, it asks again
when `changed` changes (a poll of what it shows), at most once per `refreshMs`; at a moment in the
past, never. Live, `current` (what the store holds now, by key) is the newest point. Without
history (`recorded` false) the caller draws from the store instead.
*/
export function useSeries(request: SeriesRequest | undefined, changed?: unknown, current?: ReadonlyMap<string, Sample>, options: Options = {}): SeriesState {
	const {engine} = useServices();
	const history = engine?.history;
	const reader = history?.reader();
	const cache = reader ? seriesCache(reader) : undefined;
	const key = request ? requestKey(request) : undefined;
	// The request as plain values, so the effect below runs when, and only when, one of them changes.
	const kind = request?.kind;
	const keys = request?.keys.join('\n');
	const span = request?.windowMs;
	const columns = request?.columns;
	const at = request?.at;
	const [shown, setShown] = useState<SeriesAnswer>();
	const [error, setError] = useState<string>();
	const wanted = useRef<string>(undefined);
	const timer = useRef<NodeJS.Timeout>(undefined);

	useEffect(() => {
		wanted.current = key;
		return () => {
			wanted.current = undefined;
			clearTimeout(timer.current);
			timer.current = undefined;
		};
	}, [key]);

	useEffect(() => {
		if (!cache || key === undefined || kind === undefined || keys === undefined || span === undefined || columns === undefined || cache.inFlight(key)) {
			return;
		}

		const request: SeriesRequest = {kind, keys: keys === '' ? [] : keys.split('\n'), windowMs: span, columns, at};
		const ask = () => {
			timer.current = undefined;
			cache.ask(request).then(
				answer => {
					// An answer for a window or a moment no longer shown is kept for later, not drawn.
					if (wanted.current === answer.key) {
						setError(undefined);
						setShown(answer);
					}
				},
				(error_: unknown) => {
					if (wanted.current === key) {
						setError(sanitizeLine(error_ instanceof Error ? error_.message : String(error_)));
					}
				},
			);
		};

		const kept = cache.peek(key);
		if (!kept) {
			// Not before the history is ready to read (the demo records its simulated past first).
			let cancelled = false;
			void (history?.ready ?? Promise.resolve()).then(() => {
				if (!cancelled && !cache.inFlight(key)) {
					ask();
				}
			});
			return () => {
				cancelled = true;
			};
		}

		if (!kept.live || timer.current) {
			return;
		}

		const age = Date.now() - kept.askedAt;
		timer.current = setTimeout(ask, Math.max(afterPollMs, refreshMs(request) - age));
	}, [cache, history, key, kind, keys, span, columns, at, changed]);

	let kept = key ? cache?.peek(key) : undefined;
	if (!kept && options.atOnce && cache && request && key !== undefined && !cache.inFlight(key) && (history?.ready === undefined || isSettled(history.ready))) {
		kept = cache.askNow(request);
	}

	const found = cache ? (kept ?? shown) : undefined;
	const answer = useMemo(() => (found && kind && current ? withCurrent(found, kind, current) : found), [found, kind, current]);
	return {answer, recorded: cache !== undefined, waiting: Boolean(cache && key && answer?.key !== key), error};
}

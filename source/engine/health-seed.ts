import {healthSampleOf} from '../history/fields.js';
import type {HistoryReader} from '../history/history-types.js';
import {keyframeMs} from '../history/keyframe.js';
import type {PodtopStore, StoreWrites} from '../store/create-store.js';
import {figuresWindowMs} from '../store/endpoint-figures.js';

type Options = {
	readonly store: PodtopStore;
	readonly writes: StoreWrites;
	/** The history to read (undefined: none). */
	readonly reader: () => HistoryReader | undefined;
	/** Settles once the history holds what there is to read (the demo's simulated past recorded). */
	readonly ready: Promise<void>;
	readonly now?: () => number;
};

/** How far back an endpoint's recorded health is read: its figures' window, and a minute before it (every minute has a keyframe: the counters at the window's start). */
const seedMs = figuresWindowMs + keyframeMs;

/**
Starts each endpoint's health history, as the endpoint first appears in the store, from what the history
recorded of it in the last minutes (one read for all the endpoints listed at once): its throughput,
failure rate and drain ETA show at the first poll, not once its own polls span 15 s. An account fed by
an agent comes with the agent's histories, and is left alone. Returns the stop.
*/
export function seedHealthFromHistory({store, writes, reader, ready, now = Date.now}: Options): () => void {
	const seen = new Set<string>();
	let started = false;
	let stopped = false;

	const seed = async () => {
		const {endpoints, via} = store.getState();
		const history = via === 'direct' ? reader() : undefined;
		const keys = endpoints.order.filter(id => !seen.has(id));
		if (stopped || !history || keys.length === 0) {
			return;
		}

		for (const id of keys) {
			seen.add(id);
		}

		const at = now();
		try {
			const series = await history.series({kind: 'endpoint', keys, from: at - seedMs, to: at});
			if (!stopped) {
				writes.seedHealth(new Map(series.map(({key, points}) => [key, points.map(point => healthSampleOf(point.at, point.last))])), at);
			}
		} catch {
			// Nothing recorded to start from: the endpoints' own polls make their figures.
		}
	};

	// After the write that listed them has settled: an agent's account is adopted before the store says it came from the agent.
	const unsubscribe = store.subscribe((next, previous) => {
		if (started && next.endpoints.order !== previous.endpoints.order) {
			queueMicrotask(() => {
				void seed();
			});
		}
	});
	void ready.then(() => {
		started = true;
		void seed();
	});
	return () => {
		stopped = true;
		unsubscribe();
	};
}

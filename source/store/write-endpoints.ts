import type {EndpointRecord, ServerlessDiscount} from '../model/endpoint.js';
import type {Health} from '../api/job-types.js';
import {deepEqual} from '../lib/deep-equal.js';
import {endpointFigures} from './endpoint-figures.js';
import {healthKeepMs} from './health-keep.js';
import type {GetState, SetState} from './state.js';
import type {EndpointState, HealthSample} from './types.js';

/**
Samples kept per endpoint at most over the default ten minutes (one per change, every 5 s on screen,
or one per 30 s when quiet); a longer keep keeps as many more. None is older than the keep.
*/
export const healthHistoryLimit = 120;
/** A quiet endpoint still gets a sample this often, so rates decay and sparklines keep time. */
export const quietSampleMs = 30_000;

export type HealthResult = {readonly endpointId: string; readonly health?: Health; readonly error?: string};

export type EndpointWrites = {
	readonly setEndpoints: (records: readonly EndpointRecord[], at: number) => void;
	readonly setDiscount: (discount: ServerlessDiscount | undefined) => void;
	/** One poll cycle's answers for many endpoints, in one write (500 endpoints must not mean 500 writes). */
	readonly setHealthResults: (results: readonly HealthResult[], at: number) => void;
	readonly setHealth: (endpointId: string, health: Health, at: number) => void;
	readonly setHealthError: (endpointId: string, error: string | undefined) => void;
	/**
	Health samples recorded before this process polled (the history file's, at start), put before each endpoint's
	own: its figures show at once, not once its own polls span 15 s. Samples older than the keep are left out.
	*/
	readonly seedHealth: (samples: ReadonlyMap<string, readonly HealthSample[]>, at: number) => void;
};

/** How long, and how many, of an endpoint's samples are kept. */
type Keep = {readonly ms: number; readonly samples: number};

/** The history with `sample` appended: at most `keep.samples`, none older than `keep.ms` before it. */
function appendSample(history: readonly HealthSample[], sample: HealthSample, keep: Keep): HealthSample[] {
	let start = Math.max(0, history.length + 1 - keep.samples);
	while (start < history.length && history[start]!.at < sample.at - keep.ms) {
		start++;
	}

	const next = history.slice(start);
	next.push(sample);
	return next;
}

/** The endpoint after a health answer, or the same object when nothing worth a write changed. */
function withHealth(current: EndpointState, health: Health, at: number, keep: Keep): EndpointState {
	const lastSample = current.history.at(-1);
	// A quiet endpoint still gets a sample every 30 s while its rates have something to decay from;
	// once they read zero, an unchanged answer writes nothing (an idle screen stays still).
	const settled = current.figures.throughputPerMinute === 0;
	const quietSampleDue = lastSample !== undefined && at - lastSample.at >= quietSampleMs && !settled;
	if (deepEqual(current.health, health) && current.healthError === undefined && lastSample && !quietSampleDue) {
		return current;
	}

	const history = appendSample(
		current.history,
		{
			at,
			inQueue: health.jobs.inQueue,
			inProgress: health.jobs.inProgress,
			completed: health.jobs.completed,
			failed: health.jobs.failed,
			retried: health.jobs.retried,
			running: health.workers.running,
		},
		keep,
	);
	return {record: current.record, health, healthAt: at, history, figures: endpointFigures(history)};
}

const emptyFigures = endpointFigures([]);

/** `keepMs`: how long a sample is kept (`healthKeepFor` the alert rules). */
export function endpointWrites(set: SetState, get: GetState, keepMs = healthKeepMs): EndpointWrites {
	const keep: Keep = {ms: keepMs, samples: Math.ceil((healthHistoryLimit * Math.max(keepMs, healthKeepMs)) / healthKeepMs)};
	const setHealthResults = (results: readonly HealthResult[], at: number) => {
		const state = get().endpoints;
		let byId: Record<string, EndpointState> | undefined;
		for (const {endpointId, health, error} of results) {
			const current = (byId ?? state.byId)[endpointId];
			if (!current) {
				continue;
			}

			const next = health ? withHealth(current, health, at, keep) : current.healthError === error ? current : {...current, healthError: error};
			if (next !== current) {
				byId ??= {...state.byId};
				byId[endpointId] = next;
			}
		}

		if (byId) {
			set({endpoints: {...state, byId}});
		}
	};

	return {
		setDiscount(discount) {
			if (!deepEqual(get().serverlessDiscount, discount)) {
				set({serverlessDiscount: discount});
			}
		},
		setEndpoints(records, at) {
			const {endpoints, listSource} = get();
			const {byId, order} = endpoints;
			const nextOrder = records.map(record => record.id);
			const unchanged = endpoints.listedBy === listSource && deepEqual(order, nextOrder) && records.every(record => deepEqual(byId[record.id]?.record, record));
			if (unchanged) {
				return;
			}

			const next: Record<string, EndpointState> = {};
			for (const record of records) {
				const previous = byId[record.id];
				next[record.id] = previous ? {...previous, record} : {record, history: [], figures: emptyFigures};
			}

			set({endpoints: {byId: next, order: nextOrder, updatedAt: at, listedBy: listSource}});
		},
		setHealthResults,
		seedHealth(samples, at) {
			const state = get().endpoints;
			let byId: Record<string, EndpointState> | undefined;
			for (const [endpointId, recorded] of samples) {
				const current = (byId ?? state.byId)[endpointId];
				const first = current?.history[0]?.at ?? Number.POSITIVE_INFINITY;
				const earlier = recorded.filter(sample => sample.at < first && sample.at >= at - keep.ms);
				if (!current || earlier.length === 0) {
					continue;
				}

				const history = [...earlier, ...current.history].slice(-keep.samples);
				byId ??= {...state.byId};
				byId[endpointId] = {...current, history, figures: endpointFigures(history)};
			}

			if (byId) {
				set({endpoints: {...state, byId}});
			}
		},
		setHealth(endpointId, health, at) {
			setHealthResults([{endpointId, health}], at);
		},
		setHealthError(endpointId, error) {
			setHealthResults([{endpointId, error}], Date.now());
		},
	};
}

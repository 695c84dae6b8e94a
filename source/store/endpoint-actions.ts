import type {EndpointRecord} from '../api/graphql-types.js';
import type {Health} from '../api/job-types.js';
import {appendBounded} from '../lib/bounded.js';
import {deepEqual} from '../lib/deep-equal.js';
import {endpointFigures} from './endpoint-figures.js';
import type {GetState, SetState} from './state.js';
import type {EndpointState} from './types.js';

/** Samples kept per endpoint (at one per change, or one per 30 s when quiet: well over 30 minutes). */
export const healthHistoryLimit = 120;
/** A quiet endpoint still gets a sample this often, so rates decay and sparklines keep time. */
export const quietSampleMs = 30_000;

export type EndpointActions = {
	readonly setEndpoints: (records: readonly EndpointRecord[], at: number) => void;
	readonly setHealth: (endpointId: string, health: Health, at: number) => void;
	readonly setHealthError: (endpointId: string, error: string | undefined) => void;
};

const emptyFigures = endpointFigures([]);

export function endpointActions(set: SetState, get: GetState): EndpointActions {
	return {
		setEndpoints(records, at) {
			const {byId, order} = get().endpoints;
			const nextOrder = records.map(record => record.id);
			const unchanged = deepEqual(order, nextOrder) && records.every(record => deepEqual(byId[record.id]?.record, record));
			if (unchanged) {
				return;
			}

			const next: Record<string, EndpointState> = {};
			for (const record of records) {
				const previous = byId[record.id];
				next[record.id] = previous ? {...previous, record} : {record, history: [], figures: emptyFigures};
			}

			set({endpoints: {byId: next, order: nextOrder, updatedAt: at}});
		},
		setHealth(endpointId, health, at) {
			const state = get().endpoints;
			const current = state.byId[endpointId];
			if (!current) {
				return;
			}

			const lastSample = current.history.at(-1);
			if (deepEqual(current.health, health) && current.healthError === undefined && lastSample && at - lastSample.at < quietSampleMs) {
				return;
			}

			const history = appendBounded(current.history, {
				at,
				inQueue: health.jobs.inQueue,
				inProgress: health.jobs.inProgress,
				completed: health.jobs.completed,
				failed: health.jobs.failed,
				retried: health.jobs.retried,
				running: health.workers.running,
			}, healthHistoryLimit);
			const updated: EndpointState = {record: current.record, health, healthAt: at, history, figures: endpointFigures(history)};
			set({endpoints: {...state, byId: {...state.byId, [endpointId]: updated}}});
		},
		setHealthError(endpointId, error) {
			const state = get().endpoints;
			const current = state.byId[endpointId];
			if (!current || current.healthError === error) {
				return;
			}

			set({endpoints: {...state, byId: {...state.byId, [endpointId]: {...current, healthError: error}}}});
		},
	};
}

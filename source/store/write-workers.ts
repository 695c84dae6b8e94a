import {deepEqual} from '../lib/deep-equal.js';
import type {Rollout, WorkerList} from '../model/worker.js';
import type {GetState, SetState} from './state.js';
import {trackWorkers, type EndpointWorkers, type WorkersState} from './worker-track.js';

export const emptyWorkers: WorkersState = {byEndpoint: {}, rollouts: {}, errors: {}};

export type WorkerWrites = {
	/** A read of an endpoint's workers; undefined: the endpoint is gone. Nothing is written when only uptimes moved on. */
	readonly setWorkers: (endpointId: string, list: WorkerList | undefined) => void;
	readonly setRollout: (endpointId: string, rollout: Rollout | undefined) => void;
	readonly setWorkersError: (endpointId: string, error: string | undefined) => void;
	readonly setWorkersUnavailable: (reason: string | undefined) => void;
	/** Endpoints no longer watched (not open, no queue): their lists are let go. */
	readonly forgetWorkers: (endpointIds: readonly string[]) => void;
	/**
	An endpoint's workers as the agent feeding this process read them (`readFedWorkers`), unless this process read them later itself
	(its open endpoint); undefined: the agent let them go, and so does this process unless it read them later.
	*/
	readonly setFedWorkers: (endpointId: string, workers: EndpointWorkers | undefined) => void;
};

const without = <T>(record: Readonly<Record<string, T>>, keys: readonly string[]): Record<string, T> => {
	const next = {...record};
	for (const key of keys) {
		delete next[key];
	}

	return next;
};

export function workerWrites(set: SetState, get: GetState): WorkerWrites {
	const update = (next: Partial<WorkersState>) => {
		set({workers: {...get().workers, ...next}});
	};

	return {
		setWorkers(endpointId, list) {
			const {workers} = get();
			const errors = endpointId in workers.errors ? without(workers.errors, [endpointId]) : workers.errors;
			if (!list) {
				if (endpointId in workers.byEndpoint || errors !== workers.errors) {
					update({byEndpoint: without(workers.byEndpoint, [endpointId]), rollouts: without(workers.rollouts, [endpointId]), errors});
				}

				return;
			}

			const previous = workers.byEndpoint[endpointId];
			const queueWaits = (get().endpoints.byId[endpointId]?.health?.jobs.inQueue ?? 0) > 0;
			const next = trackWorkers(previous, list, queueWaits);
			if (next !== previous || errors !== workers.errors || workers.unavailable !== undefined) {
				update({byEndpoint: {...workers.byEndpoint, [endpointId]: next}, errors, unavailable: undefined});
			}
		},
		setRollout(endpointId, rollout) {
			const {rollouts} = get().workers;
			if (!rollout) {
				if (endpointId in rollouts) {
					update({rollouts: without(rollouts, [endpointId])});
				}

				return;
			}

			if (!deepEqual(rollouts[endpointId], rollout)) {
				update({rollouts: {...rollouts, [endpointId]: rollout}});
			}
		},
		setWorkersError(endpointId, error) {
			const {errors} = get().workers;
			if (errors[endpointId] !== error) {
				update({errors: error === undefined ? without(errors, [endpointId]) : {...errors, [endpointId]: error}});
			}
		},
		setWorkersUnavailable(reason) {
			if (get().workers.unavailable !== reason) {
				update({unavailable: reason});
			}
		},
		forgetWorkers(endpointIds) {
			const {workers} = get();
			const known = endpointIds.filter(id => id in workers.byEndpoint || id in workers.rollouts || id in workers.errors);
			if (known.length > 0) {
				update({
					byEndpoint: without(workers.byEndpoint, known),
					rollouts: without(workers.rollouts, known),
					errors: without(workers.errors, known),
					...(workers.fed ? {fed: without(workers.fed, known)} : {}),
				});
			}
		},
		setFedWorkers(endpointId, fed) {
			const {workers} = get();
			const held = workers.byEndpoint[endpointId];
			const fedAt = workers.fed?.[endpointId];
			if (!fed) {
				if (fedAt !== undefined) {
					// Read later by this process (its open endpoint): its own to let go.
					const own = held !== undefined && held.list.readAt > fedAt;
					update({byEndpoint: own ? workers.byEndpoint : without(workers.byEndpoint, [endpointId]), fed: without(workers.fed ?? {}, [endpointId])});
				}

				return;
			}

			if (held && held.list.readAt > fed.list.readAt) {
				return;
			}

			update({byEndpoint: {...workers.byEndpoint, [endpointId]: fed}, fed: {...workers.fed, [endpointId]: fed.list.readAt}});
		},
	};
}

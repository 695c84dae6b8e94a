import type {PodRecord} from '../api/graphql-types.js';
import {appendBounded} from '../lib/bounded.js';
import {deepEqual} from '../lib/deep-equal.js';
import type {GetState, SetState} from './state.js';
import type {PodState} from './types.js';

export const utilHistoryLimit = 60;

export type PodActions = {
	readonly setPods: (records: readonly PodRecord[], at: number) => void;
};

/** Mean GPU utilisation of a running pod; undefined when it has no runtime. */
export function meanGpuUtil(record: PodRecord): number | undefined {
	const gpus = record.runtime?.gpus ?? [];
	if (gpus.length === 0) {
		return undefined;
	}

	return Math.round(gpus.reduce((sum, gpu) => sum + (gpu.gpuUtilPercent ?? 0), 0) / gpus.length);
}

export function podActions(set: SetState, get: GetState): PodActions {
	return {
		setPods(records, at) {
			const {byId, order} = get().pods;
			const nextOrder = records.map(record => record.id);
			let changed = !deepEqual(order, nextOrder);
			const next: Record<string, PodState> = {};
			for (const record of records) {
				const previous = byId[record.id];
				if (previous && deepEqual(previous.record, record)) {
					next[record.id] = previous;
					continue;
				}

				changed = true;
				const util = meanGpuUtil(record);
				next[record.id] = {
					record,
					utilHistory: util === undefined ? (previous?.utilHistory ?? []) : appendBounded(previous?.utilHistory ?? [], util, utilHistoryLimit),
				};
			}

			if (changed) {
				set({pods: {byId: next, order: nextOrder, updatedAt: at}});
			}
		},
	};
}

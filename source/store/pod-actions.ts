import type {PodRecord} from '../api/graphql-types.js';
import {appendBounded} from '../lib/bounded.js';
import {mergeRecords} from './merge-records.js';
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
			const pods = mergeRecords<PodRecord, PodState>(get().pods, records, at, (record, previous) => {
				const util = meanGpuUtil(record);
				return {record, utilHistory: util === undefined ? (previous?.utilHistory ?? []) : appendBounded(previous?.utilHistory ?? [], util, utilHistoryLimit)};
			});
			if (pods) {
				set({pods});
			}
		},
	};
}

import type {PodRecord} from '../api/graphql-types.js';
import {appendBounded} from '../lib/bounded.js';
import {mergeRecords} from './merge-records.js';
import {meanGpuUtil} from './pod-figures.js';
import type {GetState, SetState} from './state.js';
import type {PodState} from './types.js';

export const utilHistoryLimit = 60;

export type PodWrites = {
	readonly setPods: (records: readonly PodRecord[], at: number) => void;
};

export function podWrites(set: SetState, get: GetState): PodWrites {
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

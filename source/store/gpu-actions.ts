import type {GpuTypeRecord} from '../api/graphql-types.js';
import {appendBounded} from '../lib/bounded.js';
import {mergeRecords} from './merge-records.js';
import type {GetState, SetState} from './state.js';
import type {GpuState, StockStatus} from './types.js';

export const stockHistoryLimit = 60;

export type GpuActions = {
	readonly setGpuTypes: (records: readonly GpuTypeRecord[], at: number) => void;
};

export function stockOf(record: GpuTypeRecord): StockStatus {
	const status = record.lowestPrice?.stockStatus;
	return status === 'High' || status === 'Medium' || status === 'Low' || status === 'None' ? status : 'Unknown';
}

export function gpuActions(set: SetState, get: GetState): GpuActions {
	return {
		setGpuTypes(records, at) {
			const gpus = mergeRecords<GpuTypeRecord, GpuState>(get().gpus, records, at, (record, previous) => {
				const stock = stockOf(record);
				const history = previous?.stockHistory ?? [];
				return {record, stockHistory: history.at(-1) === stock ? history : appendBounded(history, stock, stockHistoryLimit)};
			});
			if (gpus) {
				set({gpus});
			}
		},
	};
}

import type {GpuTypeRecord} from '../model/gpu-type.js';
import {appendBounded} from '../lib/bounded.js';
import {mergeRecords} from './merge-records.js';
import type {GetState, SetState} from './state.js';
import {stockOf} from './gpu-stock.js';
import type {GpuState} from './types.js';

export const stockHistoryLimit = 60;

export type GpuWrites = {
	readonly setGpuTypes: (records: readonly GpuTypeRecord[], at: number) => void;
};

export function gpuWrites(set: SetState, get: GetState): GpuWrites {
	return {
		setGpuTypes(records, at) {
			const gpus = mergeRecords<GpuTypeRecord, GpuState>(
				get().gpus,
				records,
				at,
				(record, previous) => {
					const stock = stockOf(record);
					const history = previous?.stockHistory ?? [];
					return {record, stockHistory: history.at(-1) === stock ? history : appendBounded(history, stock, stockHistoryLimit)};
				},
				get().listSource,
			);
			if (gpus) {
				set({gpus});
			}
		},
	};
}

import type {GpuTypeRecord} from '../api/graphql-types.js';
import {appendBounded} from '../lib/bounded.js';
import {deepEqual} from '../lib/deep-equal.js';
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
			const {byId, order} = get().gpus;
			const nextOrder = records.map(record => record.id);
			let changed = !deepEqual(order, nextOrder);
			const next: Record<string, GpuState> = {};
			for (const record of records) {
				const previous = byId[record.id];
				if (previous && deepEqual(previous.record, record)) {
					next[record.id] = previous;
					continue;
				}

				changed = true;
				const stock = stockOf(record);
				const history = previous?.stockHistory ?? [];
				next[record.id] = {record, stockHistory: history.at(-1) === stock ? history : appendBounded(history, stock, stockHistoryLimit)};
			}

			if (changed) {
				set({gpus: {byId: next, order: nextOrder, updatedAt: at}});
			}
		},
	};
}

import type {GpuTypeRecord} from '../model/gpu-type.js';
import type {StockStatus} from './types.js';

/** Stock as a number a graph can draw (the exporter's podtop_gpu_stock; its HELP says the mapping). */
export const stockLevels: Readonly<Record<StockStatus, number>> = {None: 0, Low: 1, Medium: 2, High: 3, Unknown: -1};

/** The stock word of a podtop_gpu_stock value (Unknown for any other number). */
export function stockOfLevel(level: number | null | undefined): StockStatus {
	return (Object.keys(stockLevels) as StockStatus[]).find(word => stockLevels[word] === level) ?? 'Unknown';
}

/** A GPU type's stock as one of the service's four words, or Unknown when it sent none. */
export function stockOf(record: GpuTypeRecord): StockStatus {
	const status = record.lowestPrice?.stockStatus;
	return status === 'High' || status === 'Medium' || status === 'Low' || status === 'None' ? status : 'Unknown';
}

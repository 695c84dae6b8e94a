import type {GpuTypeRecord} from '../api/graphql-types.js';
import type {StockStatus} from './types.js';

/** A GPU type's stock as one of the service's four words, or Unknown when it sent none. */
export function stockOf(record: GpuTypeRecord): StockStatus {
	const status = record.lowestPrice?.stockStatus;
	return status === 'High' || status === 'Medium' || status === 'Low' || status === 'None' ? status : 'Unknown';
}

import type {PodtopState} from './state.js';

/** What an agent hands an attached client: the account as its store holds it (histories included). */
export type AccountSnapshot = Pick<PodtopState, 'endpoints' | 'pods' | 'gpus' | 'serverlessDiscount' | 'connection'>;

export function accountSnapshot({endpoints, pods, gpus, serverlessDiscount, connection}: PodtopState): AccountSnapshot {
	return {endpoints, pods, gpus, serverlessDiscount, connection};
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const isCollection = (value: unknown) =>
	isRecord(value) &&
	isRecord(value.byId) &&
	Array.isArray(value.order) &&
	value.order.every(
		id =>
			typeof id === 'string' &&
			isRecord((value.byId as Record<string, unknown>)[id]) &&
			isRecord((value.byId as Record<string, Record<string, unknown>>)[id]!.record),
	);

/** A snapshot read off the socket has the shape the store needs (every listed id has its record). */
export function isAccountSnapshot(value: unknown): value is AccountSnapshot {
	return isRecord(value) && isCollection(value.endpoints) && isCollection(value.pods) && isCollection(value.gpus) && isRecord(value.connection);
}

import type {BalanceRead} from '../model/balance.js';
import {fedWorkers} from './fed-workers.js';
import type {PodtopState} from './state.js';
import type {EndpointWorkers} from './worker-track.js';

/**
What an agent hands an attached client: the account as its store holds it (histories included), and the workers it reads (an older
agent sends none; checked by the client with `readFedWorkers`).
*/
export type AccountSnapshot = Pick<PodtopState, 'endpoints' | 'pods' | 'gpus' | 'serverlessDiscount' | 'connection'> & {
	readonly workers?: Readonly<Record<string, EndpointWorkers>>;
	/** The balance as the agent last read it (checked by the client with `balanceOf`). */
	readonly balance?: unknown;
};

/** Workers (listed and gone) a snapshot carries at most: ~1.6 kB each at worst, so ≤ 16 MB beside a 10 MB fleet in the 48 MB a line may have; lists past it come with their next change. */
export const maxSnapshotWorkers = 10_000;

function snapshotWorkers(byEndpoint: Readonly<Record<string, EndpointWorkers>>): Record<string, EndpointWorkers> {
	const sent: Record<string, EndpointWorkers> = {};
	let room = maxSnapshotWorkers;
	for (const [endpointId, workers] of Object.entries(byEndpoint)) {
		const fed = fedWorkers(workers);
		room -= fed.list.workers.length + fed.gone.length;
		if (room < 0) {
			break;
		}

		sent[endpointId] = fed;
	}

	return sent;
}

export function accountSnapshot({endpoints, pods, gpus, serverlessDiscount, connection, workers, balance}: PodtopState): AccountSnapshot {
	return {endpoints, pods, gpus, serverlessDiscount, connection, workers: snapshotWorkers(workers.byEndpoint), balance};
}

/** A balance off the wire: both figures finite numbers, or `not-published`; undefined otherwise (the agent has read none yet). */
export function balanceOf(value: unknown): BalanceRead | undefined {
	if (value === 'not-published') {
		return value;
	}

	return isRecord(value) && Number.isFinite(value.balance) && Number.isFinite(value.spendPerHour)
		? {balance: value.balance as number, spendPerHour: value.spendPerHour as number}
		: undefined;
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

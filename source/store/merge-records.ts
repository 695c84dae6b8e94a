import {deepEqual} from '../lib/deep-equal.js';
import {shareEqual} from '../lib/share-equal.js';
import type {Collection} from './state.js';
import {listStatesInOrder} from './states-in-order.js';

/**
A polled list merged into its collection: records that did not change keep their state object
(so selectors and rows see them as unchanged), and a changed one keeps the parts that did not
change from the previous record (`shareEqual`); `build` makes the state of a new or changed record
from the previous one. The list is stamped with its source (`listedBy`). Returns undefined when
nothing at all changed, its source included: no write.
*/
export function mergeRecords<R extends {readonly id: string}, S extends {readonly record: R}>(
	collection: Collection<S>,
	records: readonly R[],
	at: number,
	build: (record: R, previous: S | undefined) => S,
	listedBy: string,
): Collection<S> | undefined {
	const polledOrder = records.map(record => record.id);
	// The same order is the same list: its ids just parsed are let go.
	let changed = !deepEqual(collection.order, polledOrder) || collection.listedBy !== listedBy;
	const order = changed ? polledOrder : collection.order;
	const byId: Record<string, S> = {};
	// Made at its length: pushed one by one, a list of 10,000 is copied as it grows.
	// eslint-disable-next-line unicorn/no-new-array -- see above
	const states = new Array<S>(records.length);
	for (const [index, record] of records.entries()) {
		const previous = collection.byId[record.id];
		let state: S;
		if (previous && shareEqual(previous.record, record)) {
			state = previous;
		} else {
			changed = true;
			state = build(record, previous);
		}

		byId[record.id] = state;
		states[index] = state;
	}

	if (!changed) {
		return undefined;
	}

	listStatesInOrder(byId, order, states);
	return {byId, order, updatedAt: at, listedBy};
}

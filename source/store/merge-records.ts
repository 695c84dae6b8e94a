import {deepEqual} from '../lib/deep-equal.js';
import {shareEqual} from '../lib/share-equal.js';
import type {Collection} from './state.js';

/**
A polled list merged into its collection: records that did not change keep their state object
(so selectors and rows see them as unchanged), and a changed one keeps the parts that did not
change from the previous record (`shareEqual`); `build` makes the state of a new or changed record
from the previous one. Returns undefined when nothing at all changed: no write.
*/
export function mergeRecords<R extends {readonly id: string}, S extends {readonly record: R}>(
	collection: Collection<S>,
	records: readonly R[],
	at: number,
	build: (record: R, previous: S | undefined) => S,
): Collection<S> | undefined {
	const polledOrder = records.map(record => record.id);
	// The same order is the same list: its ids just parsed are let go.
	let changed = !deepEqual(collection.order, polledOrder);
	const order = changed ? polledOrder : collection.order;
	const byId: Record<string, S> = {};
	// By index: run a few times a minute, this stays unoptimised, where `for…of` makes an object a step.
	// eslint-disable-next-line unicorn/no-for-loop, @typescript-eslint/prefer-for-of -- see above
	for (let index = 0; index < records.length; index++) {
		const record = records[index]!;
		const previous = collection.byId[record.id];
		if (previous && shareEqual(previous.record, record)) {
			byId[record.id] = previous;
		} else {
			changed = true;
			byId[record.id] = build(record, previous);
		}
	}

	return changed ? {byId, order, updatedAt: at} : undefined;
}

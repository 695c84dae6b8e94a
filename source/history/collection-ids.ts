import type {Collection} from '../store/state.js';

/**
A collection's ids by its map's own keys, and whether they are its order (each id once, in its
place: the list's states by index are then its map's, `statesInOrder`). A lookup with a key the map
holds is cheap, one with a string fresh from the last poll's JSON (or made here) is not (10,000
pods: half the time of a flush went to those lookups).
*/
export type CollectionIds = {readonly ids: readonly string[]; readonly inOrder: boolean};

/** Each order's ids: the same list polled again keeps its order (`mergeRecords`), and so its ids (a list of 10,000 keys made at every poll was a sixth of a flush's garbage). */
const idsByOrder = new WeakMap<readonly string[], CollectionIds>();

export function idsOf(collection: Collection<unknown>): CollectionIds {
	let entry = idsByOrder.get(collection.order);
	if (!entry) {
		const ids = Object.keys(collection.byId);
		const {order} = collection;
		let inOrder = ids.length === order.length;
		for (let index = 0; inOrder && index < ids.length; index++) {
			inOrder = ids[index] === order[index];
		}

		entry = {ids, inOrder};
		idsByOrder.set(collection.order, entry);
	}

	return entry;
}

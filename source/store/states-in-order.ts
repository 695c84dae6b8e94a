import type {Collection} from './state.js';

type Listed = {readonly order: readonly string[]; readonly states: readonly unknown[]};

/** The states of a collection's map in its order, by the map (a writer that makes a new map has none until it lists them). */
const listed = new WeakMap<object, Listed>();

/** Lists `states` as those of `byId` in `order`, one a place of it (an id listed twice has its state twice; the map holds the last). */
export function listStatesInOrder<S>(byId: Readonly<Record<string, S>>, order: readonly string[], states: readonly S[]): void {
	listed.set(byId, {order, states});
}

/**
A collection's states in its order, where its writer listed them as it made its map (`mergeRecords`),
else undefined: a walk of every state by index then reads no map (a lookup by id in a map of
10,000 pods was a seventh of the recorder's flush).
*/
export function statesInOrder<S>(collection: Collection<S>): readonly S[] | undefined {
	const entry = listed.get(collection.byId);
	return entry?.order === collection.order ? (entry.states as readonly S[]) : undefined;
}

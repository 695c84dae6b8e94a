import type {Collection} from '../store/state.js';

/**
Whether what one list lacks of the last may be read as created or deleted: both lists came in (not
a store's empty start, nor an agent's picture before its first poll) and one source made both (this
process's polls, or one attachment to an agent). A change of source (a dashboard attaching to an
agent, an agent restarted, the dashboard polling again when it goes) compares nothing: the lists of
two sources differ by when each was made and by what each had come to list. What the new source
lacks is gone only once two of its lists in a row lack it (`collection-changes.ts`).
*/
export function comparableLists<S>(previous: Collection<S> | undefined, next: Collection<S>): previous is Collection<S> {
	return previous?.updatedAt !== undefined && next.updatedAt !== undefined && previous.listedBy === next.listedBy;
}

import {naturalCompare} from '../lib/natural-compare.js';
import {filterMatcher, matchesEverything} from '../view-state/filter-matcher.js';
import type {SortState} from '../view-state/view-state.js';
import type {SortableRow} from './row.js';

function compareValues(left: string | number | undefined, right: string | number | undefined): number {
	if (left === right) {
		return 0;
	}

	if (left === undefined) {
		return 1;
	}

	if (right === undefined) {
		return -1;
	}

	if (typeof left === 'number' && typeof right === 'number') {
		return left - right;
	}

	return naturalCompare(String(left), String(right));
}

/**
What a pane showed the last time: its rows in order, and the filter and sort that made it. `from` and
`picks`, when known: the rows it was made of (filtered, in the order they came) and for each row shown
its place among them, so rows that come with the same keys in the same order (a time cursor's step: the
same pods at another moment) are put in that order without a map of them by key.
*/
export type LastShown<T> = {
	readonly rows: readonly T[];
	readonly filter: string;
	readonly sort: SortState;
	readonly from?: readonly T[];
	readonly picks?: readonly number[];
};

const sameKeys = (a: readonly SortableRow[], b: readonly SortableRow[]) => {
	if (a.length !== b.length) {
		return false;
	}

	// eslint-disable-next-line unicorn/no-for-loop -- by index over two lists
	for (let index = 0; index < a.length; index++) {
		if (a[index]!.key !== b[index]!.key) {
			return false;
		}
	}

	return true;
};

/**
Applies the pane's filter and sort. Undefined values sort last either way; rows that tie are in
natural order of their first column, so the order never flickers between polls.

`last` is what was shown the last time (a pane's rows keep their order from poll to poll: status
and name rarely change). When the rows in that order are still sorted, it is kept after n − 1
comparisons instead of a sort's n log n (natural comparison of names is the costly part); with the
same filter and sort, two neighbours that are both the rows they were (or rows with the same values
to sort by) are still in order, so only the pairs with a changed row are compared (a poll of the rows
on screen: a few dozen of thousands; a time cursor's step: the pods whose status or name changed).
*/
export function filterAndSort<T extends SortableRow>(rows: readonly T[], filter: string, sort: SortState, last?: LastShown<T>): T[] {
	return sortShown(rows, filter, sort, last).rows as T[];
}

/** `filterAndSort`, with what the next call needs to put rows that come in the same order in place without a map by key. */
export function sortShown<T extends SortableRow>(rows: readonly T[], filter: string, sort: SortState, last?: LastShown<T>): LastShown<T> {
	const matches = filterMatcher(filter);
	const direction = sort.descending ? -1 : 1;
	// With no filter, no row's search text is asked for (a Pods row makes its own when read).
	const kept = matchesEverything(filter) ? [...rows] : rows.filter(row => matches(row.searchText));
	const compare = (a: T, b: T) => {
		const left = a.sortValues[sort.column];
		const right = b.sortValues[sort.column];
		const primary = left === undefined || right === undefined ? compareValues(left, right) : compareValues(left, right) * direction;
		return primary || compareValues(a.sortValues[0], b.sortValues[0]) || compareValues(a.key, b.key);
	};

	if (last?.rows.length === kept.length) {
		const before = last.rows;
		let picks: ReadonlyArray<number | undefined>;
		if (last.picks && last.from && sameKeys(last.from, kept)) {
			({picks} = last);
		} else {
			const byKey = new Map(kept.map((row, index) => [row.key, index]));
			picks = before.map(row => byKey.get(row.key));
		}

		const ordered = picks.map(index => (index === undefined ? undefined : kept[index]));
		const sameOrdering = last.filter === filter && last.sort.column === sort.column && last.sort.descending === sort.descending;
		// A row made anew with the values `compare` reads (a pod's status and name at the next moment) stands where the one it replaces did.
		const asBefore = (index: number) => {
			const row = ordered[index];
			const was = before[index]!;
			return row === was || (row !== undefined && row.sortValues[sort.column] === was.sortValues[sort.column] && row.sortValues[0] === was.sortValues[0]);
		};

		const inOrder = (row: T | undefined, index: number) =>
			row !== undefined &&
			(index === 0 ||
				(sameOrdering && asBefore(index) && asBefore(index - 1)) ||
				// Strictly in order: rows that compare equal are left to the sort, which keeps them as they came.
				compare(ordered[index - 1]!, row) < 0);
		if (ordered.every((row, index) => inOrder(row, index))) {
			return {rows: ordered as T[], filter, sort, from: kept, picks: picks as number[]};
		}
	}

	// The places sorted, not the rows: the sort is stable, so the order is the rows' own sort's.
	const picks = kept.map((_, index) => index).sort((a, b) => compare(kept[a]!, kept[b]!));
	return {rows: picks.map(index => kept[index]!), filter, sort, from: kept, picks};
}

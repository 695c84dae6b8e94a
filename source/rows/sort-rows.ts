import {filterMatcher, matchesEverything} from '../view-state/filter-matcher.js';
import type {SortState} from '../view-state/view-state.js';
import type {SortableRow} from './row.js';

/** Natural order for names: `exp-2` before `exp-10`, case ignored. */
export const naturalCompare = new Intl.Collator(undefined, {numeric: true, sensitivity: 'base'}).compare;

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
Applies the pane's filter and sort. Undefined values sort last either way; rows that tie are in
natural order of their first column, so the order never flickers between polls.
*/
export function filterAndSort<T extends SortableRow>(rows: readonly T[], filter: string, sort: SortState): T[] {
	const matches = filterMatcher(filter);
	const direction = sort.descending ? -1 : 1;
	// With no filter, no row's search text is asked for (a Pods row makes its own when read).
	const kept = matchesEverything(filter) ? [...rows] : rows.filter(row => matches(row.searchText));
	return kept.sort((a, b) => {
		const left = a.sortValues[sort.column];
		const right = b.sortValues[sort.column];
		const primary = left === undefined || right === undefined ? compareValues(left, right) : compareValues(left, right) * direction;
		return primary || compareValues(a.sortValues[0], b.sortValues[0]) || compareValues(a.key, b.key);
	});
}

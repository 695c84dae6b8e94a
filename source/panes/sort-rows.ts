import type {Row} from '../components/table.js';
import {filterMatcher, type SortState} from '../ui/ui-state.js';

export type SortableRow = Row & {
	/** One value per column, for sorting by that column. */
	readonly sortValues: ReadonlyArray<string | number | undefined>;
	/** What the `/` filter searches. */
	readonly searchText: string;
};

/** Applies the pane's filter and sort; undefined values sort last either way. */
export function filterAndSort<T extends SortableRow>(rows: readonly T[], filter: string, sort: SortState): T[] {
	const matches = filterMatcher(filter);
	const direction = sort.descending ? -1 : 1;
	return rows.filter(row => matches(row.searchText)).sort((a, b) => {
		const left = a.sortValues[sort.column];
		const right = b.sortValues[sort.column];
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
			return (left - right) * direction;
		}

		return String(left).localeCompare(String(right)) * direction;
	});
}

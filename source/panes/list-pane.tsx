import {Box} from 'ink';
import type {MutableRefObject} from 'react';
import {PaneTitle} from '../components/pane-title.js';
import {Table, type Column} from '../components/table.js';
import type {SourceName} from '../store/types.js';
import type {SortState} from '../ui/ui-state.js';
import {filterAndSort, type SortableRow} from './sort-rows.js';

export type PaneProps = {
	readonly width: number;
	readonly height: number;
	readonly selected: number;
	readonly sort: SortState;
	readonly filter: string;
	/** The pane reports the keys of the rows it shows, in order: the app needs them for Enter and movement. */
	readonly rowKeys: MutableRefObject<readonly string[]>;
};

type Props = PaneProps & {
	readonly title: string;
	readonly source: SourceName;
	readonly columns: readonly Column[];
	readonly rows: readonly SortableRow[];
	readonly hint?: string;
	readonly above?: React.ReactNode;
	readonly aboveHeight?: number;
};

/** A list pane: title line, optional summary line, then the filtered, sorted, virtualised table. */
export function ListPane({title, source, columns, rows, width, height, selected, sort, filter, rowKeys, hint, above, aboveHeight = 0}: Props) {
	const shown = filterAndSort(rows, filter, sort);
	rowKeys.current = shown.map(row => row.key);
	return (
		<Box flexDirection="column" width={width} height={height}>
			<PaneTitle title={title} shown={shown.length} total={rows.length} filter={filter} source={source} width={width} hint={hint}/>
			{above}
			<Table columns={columns} rows={shown} selected={Math.min(selected, Math.max(0, shown.length - 1))} height={height - 1 - aboveHeight} width={width} sort={sort} emptyText={rows.length === 0 ? 'loading…' : 'no match for the filter'}/>
		</Box>
	);
}

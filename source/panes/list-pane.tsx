import {Box} from 'ink';
import {useEffect, type ReactNode} from 'react';
import {useShallow} from 'zustand/react/shallow';
import {PaneTitle} from '../components/pane-title.js';
import {usePodtop, useServices, useView} from '../components/services.js';
import {Table, visibleWindow} from '../components/table.js';
import type {SourceName} from '../store/types.js';
import type {ListPane as PaneName} from '../view-state/view-state.js';

type Props = {
	readonly pane: PaneName;
	readonly title: string;
	readonly source: SourceName;
	readonly width: number;
	readonly height: number;
	readonly hint?: string;
	readonly above?: ReactNode;
	readonly aboveHeight?: number;
};

/** A list pane: title line, optional summary line, then the filtered, sorted, virtualised table of the rows every key acts on. */
export function ListPane({pane, title, source, width, height, hint, above, aboveHeight = 0}: Props) {
	const {rows: selectors, engine} = useServices();
	const view = useView(useShallow(state => ({columns: state.columns, filter: state.filter, sort: state.sort})));
	const selection = useView(state => state.selected[pane]);
	const {columns, all, shown, widths} = usePodtop(state => selectors.pane(state, view, pane));
	const found = selection.key === undefined ? -1 : shown.findIndex(row => row.key === selection.key);
	const selected = found === -1 ? Math.min(selection.index, Math.max(0, shown.length - 1)) : found;
	const filter = view.filter[pane];
	const tableHeight = height - 1 - aboveHeight;
	// The endpoints on screen are the ones whose health is polled every few seconds.
	const {start, end} = visibleWindow(shown.length, selected, Math.max(0, tableHeight - 1));
	const onScreen =
		pane === 'endpoints'
			? shown
					.slice(start, end)
					.map(row => row.key)
					.join('\n')
			: '';
	useEffect(() => {
		if (pane === 'endpoints') {
			engine?.showing(onScreen ? onScreen.split('\n') : []);
		}
	}, [engine, pane, onScreen]);
	return (
		<Box flexDirection='column' width={width} height={height}>
			<PaneTitle title={title} shown={shown.length} total={all.length} filter={filter} source={source} width={width} hint={hint} />
			{above}
			<Table
				columns={columns}
				rows={shown}
				contentWidths={widths}
				selected={selected}
				height={tableHeight}
				width={width}
				sort={view.sort[pane]}
				emptyText={all.length === 0 ? 'loading…' : 'no match for the filter'}
			/>
		</Box>
	);
}

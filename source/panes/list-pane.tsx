import {Box} from 'ink';
import {useEffect, useMemo, type ReactNode} from 'react';
import {useShallow} from 'zustand/react/shallow';
import {PaneTitle} from '../components/pane-title.js';
import {usePodtop, useServices, useView} from '../components/services.js';
import {layoutColumns, Table, visibleWindow} from '../components/table.js';
import {trendColumns, useTrendCells} from '../components/trend-cells/index.js';
import {useRecorded} from '../components/use-series/index.js';
import {keyNotAccepted, retryInDashboard} from '../format/key-refused.js';
import {selectKeyRefused} from '../store/key-refused.js';
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
	const {rows: selectors, engine, glyphs, view: viewStore} = useServices();
	const view = useView(useShallow(state => ({columns: state.columns, filter: state.filter, sort: state.sort, windows: state.windows, cursor: state.cursor})));
	const selection = useView(state => state.selected[pane]);
	const keyRefused = usePodtop(selectKeyRefused);
	const window = useView(state => state.windows[pane]);
	const {columns, all, shown, widths} = usePodtop(state => selectors.pane(state, view, pane));
	const found = selection.key === undefined ? -1 : shown.findIndex(row => row.key === selection.key);
	const selected = found === -1 ? Math.min(selection.index, Math.max(0, shown.length - 1)) : found;
	const filter = view.filter[pane];
	const tableHeight = height - 1 - aboveHeight;
	// The rows on screen are polled first: endpoints' health every few seconds, pods at the pane's cadence.
	const {start, end} = visibleWindow(shown.length, selected, Math.max(0, tableHeight - 1));
	const onScreen = shown
		.slice(start, end)
		.map(row => row.key)
		.join('\n');
	useEffect(() => {
		if (pane === 'endpoints' || pane === 'pods') {
			engine?.showing(pane, onScreen ? onScreen.split('\n') : []);
		}

		if (pane === 'endpoints') {
			viewStore.dispatch({type: 'endpoints-on-screen', keys: onScreen ? onScreen.split('\n') : []});
		}
	}, [engine, viewStore, pane, onScreen]);
	// The trend columns of the rows on screen, drawn from history over the pane's window: one request for them all.
	const titles = columns.map(column => column.title);
	const isTrend = (index: number) => trendColumns[pane].some(each => each.title === titles[index]);
	// Drawn from history, a trend column is as wide as it may be, whatever the store's short history filled.
	const recorded = useRecorded();
	const tableWidths = recorded ? widths.map((contentWidth, index) => (isTrend(index) ? (columns[index]?.width ?? contentWidth) : contentWidth)) : widths;
	const laidOut = layoutColumns(columns, width, tableWidths);
	const trendWidth = Math.max(0, ...titles.map((_, index) => (isTrend(index) ? (laidOut[index] ?? 0) : 0)));
	const keys = useMemo(() => (onScreen ? onScreen.split('\n') : []), [onScreen]);
	const trend = useTrendCells(pane, keys, trendWidth, titles);
	const cell = trend
		? (key: string, column: number, text: string) => (text.startsWith(glyphs.warning) ? undefined : trend(key, titles[column] ?? ''))
		: undefined;
	return (
		<Box flexDirection='column' width={width} height={height}>
			<PaneTitle title={title} shown={shown.length} total={all.length} filter={filter} source={source} width={width} hint={hint} window={window} />
			{above}
			<Table
				columns={columns}
				rows={shown}
				contentWidths={tableWidths}
				selected={selected}
				height={tableHeight}
				width={width}
				sort={view.sort[pane]}
				emptyText={all.length === 0 ? 'loading…' : 'no match for the filter'}
				emptyWarning={all.length === 0 && keyRefused !== undefined ? keyNotAccepted(keyRefused, retryInDashboard) : undefined}
				cell={cell}
			/>
		</Box>
	);
}

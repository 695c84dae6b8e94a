import {Box, Text} from 'ink';
import {useShallow} from 'zustand/react/shallow';
import {useKeyHints} from '../components/key-hints.js';
import {usePodtop, useServices, useView} from '../components/services.js';
import {Table} from '../components/table.js';
import {useNow} from '../components/use-now.js';
import {contentWidths} from '../rows/row.js';
import {alertColumns, alertRows} from '../rows/alert-rows.js';
import {selectedIndex} from '../view-state/view-reducer.js';

type Props = {readonly width: number; readonly height: number};

/** `:alerts`: the rules firing now, the newest first; Enter opens the endpoint, pod or GPU type one is about. */
export function AlertsView({width, height}: Props) {
	const {colors, glyphs} = useServices();
	const state = usePodtop(useShallow(({alerts, endpoints, pods, gpus}) => ({alerts, endpoints, pods, gpus})));
	const selection = useView(view => view.selected.alerts);
	const now = useNow(state.alerts.length > 0);
	const hints = useKeyHints('alerts', ['alert.open', 'back']);
	const rows = alertRows(state, now);
	const selected = selectedIndex(
		selection,
		rows.map(row => row.key),
	);
	return (
		<Box flexDirection='column' width={width} height={height}>
			<Text bold color={colors.accent} wrap='truncate'>
				{`Alerts firing (${rows.length})${hints ? `  ${hints}` : ''}`}
			</Text>
			<Table
				columns={alertColumns}
				rows={rows}
				contentWidths={contentWidths(alertColumns, rows)}
				selected={selected}
				height={height - 1}
				width={width}
				emptyText={`no alert is firing ${glyphs.dot} the rules are in --alerts (see podtop alerts)`}
			/>
		</Box>
	);
}

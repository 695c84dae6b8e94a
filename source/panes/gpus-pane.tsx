import {Box, Text} from 'ink';
import {useMemo} from 'react';
import {usePodtop, useServices} from '../ui/app-context.js';
import {gpuColumns, gpuRows, stockShare, stockTone} from './gpu-rows.js';
import {ListPane, type PaneProps} from './list-pane.js';

/** GPU types: prices, stock (symbol, word and colour), free GPUs, with the market's stock share on top. */
export function GpusPane(props: PaneProps) {
	const {glyphs, colors} = useServices();
	const gpus = usePodtop(state => state.gpus);
	const wide = props.width >= 110;
	const list = useMemo(() => gpus.order.map(id => gpus.byId[id]!), [gpus]);
	const rows = useMemo(() => gpuRows(list, wide, glyphs), [list, wide, glyphs]);
	const share = stockShare(list);
	const total = Math.max(1, share.High + share.Medium + share.Low + share.None);
	const barWidth = Math.max(8, props.width - 56);
	const summary = (
		<Box>
			<Text>stock </Text>
			{(['High', 'Medium', 'Low', 'None'] as const).map(status => (
				<Text key={status} color={colors[stockTone[status]]}>{`${glyphs.stock[status]} ${status} ${share[status]}  `}</Text>
			))}
			{(['High', 'Medium', 'Low', 'None'] as const).map(status => (
				<Text key={`bar-${status}`} color={colors[stockTone[status]]}>{(status === 'None' ? glyphs.barEmpty : glyphs.barFull).repeat(Math.round((share[status] / total) * barWidth))}</Text>
			))}
		</Box>
	);
	return <ListPane {...props} title="GPUs" source="graphql" columns={wide ? gpuColumns.wide : gpuColumns.compact} rows={rows} above={summary} aboveHeight={1} hint="s sort"/>;
}

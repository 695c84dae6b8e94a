import {Box, Text} from 'ink';
import {useMemo} from 'react';
import {usePodtop, useServices} from '../components/services.js';
import {stockShare, stockTone} from '../rows/gpu-rows.js';
import {useKeyHints} from '../components/key-hints.js';
import {ListPane} from './list-pane.js';

type Props = {readonly width: number; readonly height: number};

/** GPU types: prices, stock (symbol, word and colour), free GPUs, with the market's stock share on top. */
export function GpusPane({width, height}: Props) {
	const {glyphs, colors} = useServices();
	const gpus = usePodtop(state => state.gpus);
	const hint = useKeyHints('gpus', ['sort.next']);
	const share = useMemo(() => stockShare(gpus.order.flatMap(id => gpus.byId[id] ?? [])), [gpus]);
	const total = Math.max(1, share.High + share.Medium + share.Low + share.None);
	const barWidth = Math.max(8, width - 56);
	const summary = (
		<Box>
			<Text>stock </Text>
			{(['High', 'Medium', 'Low', 'None'] as const).map(status => (
				<Text key={status} color={colors[stockTone[status]]}>{`${glyphs.stock[status]} ${status} ${share[status]}  `}</Text>
			))}
			{(['High', 'Medium', 'Low', 'None'] as const).map(status => (
				<Text key={`bar-${status}`} color={colors[stockTone[status]]}>
					{(status === 'None' ? glyphs.barEmpty : glyphs.barFull).repeat(Math.round((share[status] / total) * barWidth))}
				</Text>
			))}
		</Box>
	);
	return <ListPane pane='gpus' title='GPUs' source='graphql' width={width} height={height} above={summary} aboveHeight={1} hint={hint} />;
}

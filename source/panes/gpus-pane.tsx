import {Box, Text} from 'ink';
import {useMemo} from 'react';
import {usePodtop, useServices} from '../components/services.js';
import {stockShare, stockTone} from '../rows/gpu-rows.js';
import {useKeyHints} from '../components/key-hints.js';
import {ListPane} from './list-pane.js';

type Props = {readonly width: number; readonly height: number};

const stockLevels = ['High', 'Medium', 'Low', 'None'] as const;

/** Each count's share of `width` cells, rounded so that together they fill it exactly (none when there are no counts). */
function barLengths(counts: readonly number[], total: number, width: number): number[] {
	let before = 0;
	return counts.map(count => {
		const start = total === 0 ? 0 : Math.round((before / total) * width);
		before += count;
		return (total === 0 ? 0 : Math.round((before / total) * width)) - start;
	});
}

/** GPU types: prices, stock (symbol, word and colour), free GPUs, with the market's stock share on top. */
export function GpusPane({width, height}: Props) {
	const {glyphs, colors} = useServices();
	const gpus = usePodtop(state => state.gpus);
	const hint = useKeyHints('gpus', ['sort.next']);
	const share = useMemo(() => stockShare(gpus.order.flatMap(id => gpus.byId[id] ?? [])), [gpus]);
	const total = share.High + share.Medium + share.Low + share.None;
	const labels = stockLevels.map(status => `${glyphs.stock[status]} ${status} ${share[status]}  `);
	// The bar takes the rest of the line, never more: a line that wrapped pushed the table's header out of the pane.
	const barWidth = Math.max(0, width - 'stock '.length - labels.join('').length);
	const bars = barLengths(
		stockLevels.map(status => share[status]),
		total,
		barWidth,
	);
	const summary = (
		<Box height={1} flexShrink={0} overflow='hidden'>
			<Text wrap='truncate'>
				stock{' '}
				{stockLevels.map((status, index) => (
					<Text key={status} color={colors[stockTone[status]]}>
						{labels[index]}
					</Text>
				))}
				{stockLevels.map((status, index) => (
					<Text key={`bar-${status}`} color={colors[stockTone[status]]}>
						{(status === 'None' ? glyphs.barEmpty : glyphs.barFull).repeat(bars[index] ?? 0)}
					</Text>
				))}
			</Text>
		</Box>
	);
	return <ListPane pane='gpus' title='GPUs' source='graphql' width={width} height={height} above={summary} aboveHeight={1} hint={hint} />;
}

import {Box, Text} from 'ink';
import {DetailTitle} from '../components/detail-title.js';
import {useKeyHints} from '../components/key-hints.js';
import {GpuCharts} from '../components/gpu-charts/index.js';
import {usePodtop, useServices, useView} from '../components/services.js';
import {useRecorded} from '../components/use-series/index.js';
import {formatDollarsPerHour, formatPrice} from '../format/numbers.js';
import {sanitizeLine} from '../format/sanitize.js';
import {complianceText, stockRank, stockTone} from '../rows/gpu-rows.js';
import {stockOf} from '../store/gpu-stock.js';

type Props = {readonly gpuId: string; readonly width: number; readonly height: number};

const label = (text: string) => text.padEnd(12);

/**
One GPU type: on-demand, spot and committed prices, the lowest price now, stock, counts, compliance;
charts of its prices, stock and free GPUs over the view's window (without history, the stock of the
last polls).
*/
export function GpuDetail({gpuId, width, height}: Props) {
	const {colors, glyphs} = useServices();
	const gpu = usePodtop(state => state.gpus.byId[gpuId]);
	const window = useView(state => state.windows.gpu);
	const recorded = useRecorded();
	const keys = useKeyHints('gpu', ['back', 'pod.deploy']);
	const windowKeys = useKeyHints('gpu', [{ids: ['window.shorter', 'window.longer'], word: 'window'}]);
	if (!gpu) {
		return <Text color={colors.warn}>{`GPU type ${sanitizeLine(gpuId)} is not in the list (any more).`}</Text>;
	}

	const {record, stockHistory} = gpu;
	const lowest = record.lowestPrice ?? undefined;
	const stock = stockOf(record);
	// REST v2 publishes a stock level, not the counts rentable at once: unknown, not none.
	const counts = lowest?.availableGpuCounts;
	const rentable = counts === undefined || counts === null ? '–' : counts.length > 0 ? counts.join(', ') : 'none';
	const history = stockHistory
		.slice(-Math.max(8, width - 20))
		.map(status => (status === 'Unknown' ? ' ' : glyphs.spark[stockRank[status] * 2 + (stockRank[status] > 0 ? 1 : 0)]!))
		.join('');
	const lines: Array<[string, string]> = [
		['on demand', `secure ${formatDollarsPerHour(record.securePrice)} · community ${formatDollarsPerHour(record.communityPrice)} (per GPU)`],
		[
			'lowest now',
			`${formatDollarsPerHour(lowest?.uninterruptablePrice)} uninterruptable · spot from ${formatDollarsPerHour(lowest?.minimumBidPrice)} (minimum bid)`,
		],
		['spot', `secure ${formatDollarsPerHour(record.secureSpotPrice)} · community ${formatDollarsPerHour(record.communitySpotPrice)}`],
		[
			'committed',
			`1 week ${formatPrice(record.oneWeekPrice)} · 1 month ${formatPrice(record.oneMonthPrice)} · 3 months ${formatPrice(record.threeMonthPrice)} · 6 months ${formatPrice(record.sixMonthPrice)} per GPU-hour`,
		],
		['counts', `up to ${record.maxGpuCount ?? '–'} per pod · ${lowest?.maxUnreservedGpuCount ?? '–'} unreserved now · rentable at once: ${rentable}`],
		['compliance', complianceText(lowest?.compliance) || 'none (community cloud)'],
	];
	return (
		<Box flexDirection='column' width={width} height={height}>
			<DetailTitle
				text={`${sanitizeLine(record.displayName ?? record.id)} (${sanitizeLine(record.id)}) · ${sanitizeLine(record.manufacturer ?? '?')} · ${record.memoryInGb ?? '?'} GB  ${keys} ${glyphs.dot} ${window}${recorded ? '' : ' (history off)'} ${windowKeys}`}
				source='graphql'
			/>
			<Text wrap='truncate'>
				{label('stock')}
				<Text color={colors[stockTone[stock]]}>{`${glyphs.stock[stock]} ${stock === 'Unknown' ? '?' : stock}`}</Text>
			</Text>
			{lines.map(([name, text]) => (
				<Text key={name} wrap='truncate'>
					{label(name)}
					{text}
				</Text>
			))}
			{recorded ? (
				<GpuCharts gpuId={gpuId} width={width} height={height - 2 - lines.length} />
			) : (
				<Text wrap='truncate'>
					{label('history')}
					{history || '–'}
					<Text dimColor>{`  stock over the last ${stockHistory.length} polls (tall: High, flat: None)`}</Text>
				</Text>
			)}
		</Box>
	);
}

import {Box, Text} from 'ink';
import {DataAge} from '../components/data-age.js';
import {usePodtop, useServices} from '../components/services.js';
import {formatDollarsPerHour, formatPrice} from '../format/numbers.js';
import {sanitizeLine} from '../format/sanitize.js';
import {complianceText, stockRank, stockTone} from '../rows/gpu-rows.js';
import {stockOf} from '../store/gpu-stock.js';

type Props = {readonly gpuId: string; readonly width: number; readonly height: number};

const label = (text: string) => text.padEnd(12);

/** One GPU type: on-demand, spot and committed prices, the lowest price now, stock and its history, counts, compliance. */
export function GpuDetail({gpuId, width, height}: Props) {
	const {colors, glyphs} = useServices();
	const gpu = usePodtop(state => state.gpus.byId[gpuId]);
	if (!gpu) {
		return <Text color={colors.warn}>{`GPU type ${sanitizeLine(gpuId)} is not in the list (any more).`}</Text>;
	}

	const {record, stockHistory} = gpu;
	const lowest = record.lowestPrice ?? undefined;
	const stock = stockOf(record);
	const counts = lowest?.availableGpuCounts ?? [];
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
		[
			'counts',
			`up to ${record.maxGpuCount ?? '–'} per pod · ${lowest?.maxUnreservedGpuCount ?? '–'} unreserved now · rentable at once: ${counts.length > 0 ? counts.join(', ') : 'none'}`,
		],
		['compliance', complianceText(lowest?.compliance) || 'none (community cloud)'],
	];
	return (
		<Box flexDirection='column' width={width} height={height}>
			<Box>
				<Box flexGrow={1}>
					<Text bold color={colors.accent} wrap='truncate'>
						{`${sanitizeLine(record.displayName ?? record.id)} (${sanitizeLine(record.id)}) · ${sanitizeLine(record.manufacturer ?? '?')} · ${record.memoryInGb ?? '?'} GB  Esc back`}
					</Text>
				</Box>
				<DataAge source='graphql' width={30} />
			</Box>
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
			<Text wrap='truncate'>
				{label('history')}
				{history || '–'}
				<Text dimColor>{`  stock over the last ${stockHistory.length} polls (tall: High, flat: None)`}</Text>
			</Text>
		</Box>
	);
}

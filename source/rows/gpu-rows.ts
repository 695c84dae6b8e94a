import type {Glyphs} from '../format/glyphs.js';
import {formatPrice} from '../format/numbers.js';
import {sanitizeLine} from '../format/sanitize.js';
import {stockOf} from '../store/gpu-stock.js';
import type {GpuState, StockStatus} from '../store/types.js';
import type {LowestPrice} from '../model/gpu-type.js';
import type {Column, SortableRow} from './row.js';

export const gpuColumns = {
	wide: [
		{title: 'GPU TYPE', width: 18, flex: true, search: true},
		{title: 'VRAM', width: 5, align: 'right'},
		{title: 'SECURE', width: 7, align: 'right'},
		{title: 'COMMUNITY', width: 9, align: 'right'},
		{title: 'SPOT', width: 7, align: 'right'},
		{title: 'STOCK', width: 10, search: true},
		{title: 'FREE', width: 4, align: 'right', legend: 'GPUs free to rent now'},
		{title: 'STOCK TREND', width: 12},
		{title: 'SPOT TREND', width: 12},
		{title: 'COMPLIANCE', width: 18, search: true},
	],
	compact: [
		{title: 'GPU TYPE', width: 12, flex: true, search: true},
		{title: 'VRAM', width: 5, align: 'right'},
		{title: 'SECURE', width: 7, align: 'right'},
		{title: 'COMM', width: 7, align: 'right', legend: 'community cloud $/h'},
		{title: 'SPOT', width: 7, align: 'right'},
		{title: 'STOCK', width: 10, search: true},
		{title: 'FREE', width: 4, align: 'right', legend: 'GPUs free to rent now'},
	],
} as const satisfies Record<string, readonly Column[]>;

export const stockRank: Record<StockStatus, number> = {High: 3, Medium: 2, Low: 1, None: 0, Unknown: -1};
export const stockTone = {High: 'good', Medium: 'accent', Low: 'warn', None: 'bad', Unknown: 'muted'} as const;

const complianceNames: Readonly<Record<string, string>> = {ISO_IEC_27001: 'ISO27001', SOC_2_TYPE_2: 'SOC2'};

/** The standards an offer is certified for, short: `GDPR ISO27001 SOC2`; empty where none. */
export function complianceText(compliance: LowestPrice['compliance']): string {
	return (compliance ?? []).flatMap(standard => (standard ? [complianceNames[standard] ?? sanitizeLine(standard)] : [])).join(' ');
}

/** Rows for the GPUs pane: prices, stock as symbol and word (never colour alone), free GPUs. */
export function gpuRows(gpus: readonly GpuState[], wide: boolean, glyphs: Glyphs): SortableRow[] {
	return gpus.map(({record, stockHistory}) => {
		const stock = stockOf(record);
		const lowest = record.lowestPrice ?? undefined;
		// High, Medium, Low, None as tall, middle, short and flat cells; unknown as a blank.
		const trend = stockHistory
			.slice(-12)
			.map(status => (status === 'Unknown' ? ' ' : glyphs.spark[stockRank[status] * 2 + (stockRank[status] > 0 ? 1 : 0)]!))
			.join('');
		const compliance = complianceText(lowest?.compliance);
		const cells = [
			sanitizeLine(record.displayName ?? record.id),
			record.memoryInGb ? `${record.memoryInGb}G` : '–',
			formatPrice(record.securePrice),
			formatPrice(record.communityPrice),
			formatPrice(lowest?.minimumBidPrice),
			`${glyphs.stock[stock]} ${stock === 'Unknown' ? '?' : stock}`,
			String(lowest?.maxUnreservedGpuCount ?? '–'),
			// The spot price's trend is drawn from history, over the pane's window (the store keeps none).
			...(wide ? [trend, '', compliance || '–'] : []),
		];
		const sortValues = [
			record.displayName ?? record.id,
			record.memoryInGb ?? undefined,
			record.securePrice ?? undefined,
			record.communityPrice ?? undefined,
			lowest?.minimumBidPrice ?? undefined,
			stockRank[stock],
			lowest?.maxUnreservedGpuCount ?? undefined,
			stockRank[stock],
			lowest?.minimumBidPrice ?? undefined,
			compliance,
		];
		return {
			key: record.id,
			cells,
			sortValues: wide ? sortValues : sortValues.slice(0, 7),
			// The columns shown that hold text: the type's name, its stock, and (wide) its compliance; not its id.
			searchText: [cells[0], stock, ...(wide ? [compliance] : [])].join('\n'),
			tone: stockTone[stock],
			dim: stock === 'None',
		};
	});
}

/** How many types are High, Medium, Low or None right now. */
export function stockShare(gpus: readonly GpuState[]): Record<Exclude<StockStatus, 'Unknown'>, number> {
	const share = {High: 0, Medium: 0, Low: 0, None: 0};
	for (const {record} of gpus) {
		const stock = stockOf(record);
		if (stock !== 'Unknown') {
			share[stock]++;
		}
	}

	return share;
}

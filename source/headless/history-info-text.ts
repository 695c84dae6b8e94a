import {formatMoment} from '../format/moment-text.js';
import {formatBytes} from '../format/numbers.js';
import {sanitizeLine} from '../format/sanitize.js';
import {textTable} from '../format/text-table.js';
import type {HistoryInfo} from '../history/history-types.js';
import {formatSpan} from '../lib/time-spec.js';

const iso = (at: number | undefined) => (at === undefined ? null : new Date(at).toISOString());

/** `history --info --json`: times as ISO, retention as a span and in ms. */
export function historyInfoDocument(info: HistoryInfo) {
	return {
		source: info.source,
		kind: info.kind,
		bytes: info.bytes ?? null,
		tiers: info.tiers.map(tier => ({
			tier: tier.tier,
			retention: formatSpan(tier.retentionMs),
			retentionMs: tier.retentionMs,
			from: iso(tier.from),
			to: iso(tier.to),
		})),
		series: info.series ?? null,
		events: info.events ?? null,
		integrity: info.integrity ?? null,
	};
}

/** `history --info` for people: where it is, how big, each tier's span against its retention, counts, integrity. */
export function historyInfoText(info: HistoryInfo): string {
	const lines = [
		`${info.kind === 'sqlite' ? 'file' : 'source'}       ${sanitizeLine(info.source)}`,
		...(info.bytes === undefined ? [] : [`size       ${formatBytes(info.bytes)}`]),
		`series     ${info.series ?? '–'}`,
		`events     ${info.events ?? '–'}`,
		`integrity  ${info.integrity === undefined ? '–' : sanitizeLine(info.integrity)}`,
	];
	const tiers = textTable(
		['TIER', 'KEPT', 'FROM', 'TO'],
		info.tiers.map(tier => [
			tier.tier,
			formatSpan(tier.retentionMs),
			tier.from === undefined ? '–' : formatMoment(tier.from),
			tier.to === undefined ? '–' : formatMoment(tier.to),
		]),
	);
	return `${lines.join('\n')}\n\n${tiers}\n`;
}

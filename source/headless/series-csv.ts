import {csvRow} from '../format/csv.js';
import type {Series, SeriesKind} from '../history/history-types.js';

/** Kinds whose points carry a state word (a pod's status, a GPU type's stock, the account's firing alerts). */
export const kindHasState = (kind: SeriesKind) => kind !== 'endpoint';

/**
A series as CSV: a header line, then a row per point, oldest first. Raw samples give one column per
field (its value). Merged points (a rollup tier, or --step) give the field's mean under its own
name, then `<field>_min` and `<field>_max`, and a `samples` column (how many samples each row
summarises); the JSON has `last` too. The key and name are on every row, so files of several things
concatenate; they pass the sanitiser and formula neutralising as every text cell does.
*/
export function seriesCsv(series: Series): string {
	const merged = series.step > 0;
	const state = kindHasState(series.kind);
	const header = ['at', 'key', 'name', ...(merged ? ['samples'] : []), ...(state ? ['state'] : [])];
	for (const field of series.fields) {
		header.push(...(merged ? [field, `${field}_min`, `${field}_max`] : [field]));
	}

	const rows = series.points.map(point => {
		const cells: Array<string | number | null | undefined> = [
			new Date(point.at).toISOString(),
			series.key,
			series.name,
			...(merged ? [point.count] : []),
			...(state ? [point.state ?? null] : []),
		];
		for (const index of series.fields.keys()) {
			cells.push(...(merged ? [point.mean[index], point.min[index], point.max[index]] : [point.last[index]]));
		}

		return csvRow(cells);
	});
	return `${[csvRow(header), ...rows].join('\n')}\n`;
}

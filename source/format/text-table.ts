import {sanitizeLine} from './sanitize.js';

/**
Plain-text columns for headless output: left-aligned, numbers right-aligned, two spaces apart.
Every cell passes the sanitiser: service text (names, ids) never reaches a terminal raw.
*/
export function textTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>, rightAligned: ReadonlySet<number> = new Set()): string {
	const clean = rows.map(row => row.map(cell => sanitizeLine(cell)));
	const widths = header.map((title, column) => Math.max(title.length, ...clean.map(row => [...(row[column] ?? '')].length)));
	const pad = (cell: string, column: number) => {
		const padding = ' '.repeat(Math.max(0, (widths[column] ?? 0) - [...cell].length));
		return rightAligned.has(column) ? `${padding}${cell}` : `${cell}${padding}`;
	};

	const line = (cells: readonly string[]) =>
		cells
			.map((cell, column) => pad(cell, column))
			.join('  ')
			.trimEnd();
	return [line(header), ...clean.map(row => line(row))].join('\n');
}

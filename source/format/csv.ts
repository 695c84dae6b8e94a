import {sanitizeLine} from './sanitize.js';

/** A cell a spreadsheet would read as a formula: =, +, - or @ first (OWASP's list; tabs and returns are gone after the sanitiser). */
const formulaStart = /^[=+\-@]/;

/**
One text cell of CSV: sanitised to one inert line, a leading `'` when a spreadsheet would take it
for a formula (`=HYPERLINK(…)`, `-2+3`, `@SUM(…)`), and quoted (RFC 4180: `"` doubled) when it
holds a comma, a quote or spaces at its ends.
*/
export function csvText(text: string): string {
	const line = sanitizeLine(text);
	const safe = formulaStart.test(line) ? `'${line}` : line;
	return /[",]|^\s|\s$/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One CSV line: strings are text cells (see csvText), numbers are written as they are, null and undefined as empty cells. */
export function csvRow(cells: ReadonlyArray<string | number | null | undefined>): string {
	return cells.map(cell => (typeof cell === 'string' ? csvText(cell) : typeof cell === 'number' && Number.isFinite(cell) ? String(cell) : '')).join(',');
}

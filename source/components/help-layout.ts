import {wrapWords} from '../format/fit.js';
import type {HelpLine, HelpSection} from '../operations/help.js';

/** One row of the `?` overlay: a section's heading, a key and its title's first line, a title's next line, or a gap. */
export type HelpRow =
	| {readonly type: 'heading'; readonly text: string}
	| {readonly type: 'line'; readonly keys: string; readonly text: string; readonly danger: HelpLine['danger']}
	| {readonly type: 'more'; readonly text: string; readonly danger: HelpLine['danger']}
	| {readonly type: 'gap'};

export type HelpLayout = {
	readonly columns: ReadonlyArray<readonly HelpRow[]>;
	readonly columnWidth: number;
	readonly keysWidth: number;
	/** Rows each column has in all; more than `visibleRows` means the overlay scrolls. */
	readonly rowCount: number;
	readonly visibleRows: number;
};

const minimumColumnWidth = 44;
const maximumColumns = 3;
const gapWidth = 2;

const danger = (line: HelpLine) => (line.danger === 'read' ? '' : ` (${line.danger})`);

/** A section's rows at a column width: a title too long for its line goes on under itself, never cut. */
function sectionRows(section: HelpSection, columnWidth: number, keysWidth: number): HelpRow[][] {
	const entries: HelpRow[][] = [];
	for (const line of section.lines) {
		const start = Math.max(keysWidth, [...line.keys].length + 1);
		const first = wrapWords(`${line.title}${danger(line)}`, columnWidth - start);
		const [head = '', ...rest] = start === keysWidth ? first : [first[0] ?? '', ...wrapWords(first.slice(1).join(' '), columnWidth - keysWidth)];
		entries.push([
			{type: 'line', keys: line.keys, text: head, danger: line.danger},
			...rest.filter(Boolean).map((text): HelpRow => ({type: 'more', text, danger: line.danger})),
		]);
	}

	return entries;
}

/**
Fills columns top to bottom with whole entries (a key's lines never split), each column at most
`capacity` rows; undefined when that takes more than `count` columns.
*/
function fill(blocks: readonly HelpRow[][], count: number, capacity: number): HelpRow[][] | undefined {
	const columns: HelpRow[][] = [[]];
	for (const block of blocks) {
		let column = columns.at(-1)!;
		if (column.length > 0 && column.length + block.length > capacity) {
			column = [];
			columns.push(column);
		}

		// A gap never starts a column.
		column.push(...(column.length === 0 && block[0]?.type === 'gap' ? block.slice(1) : block));
	}

	return columns.length <= count ? columns : undefined;
}

/**
Lays the sections out in as few columns as show everything in `height` rows (up to three of at least
44 columns each), balanced; when even that does not fit, the widest layout scrolls.
*/
export function helpLayout(sections: readonly HelpSection[], width: number, height: number): HelpLayout {
	const keys = sections.flatMap(section => section.lines.map(line => [...line.keys].length));
	const visibleRows = Math.max(1, height);
	const most = Math.max(1, Math.min(maximumColumns, Math.floor((width + gapWidth) / (minimumColumnWidth + gapWidth))));
	let layout: HelpLayout | undefined;
	for (let count = 1; count <= most; count++) {
		const columnWidth = Math.floor((width - (count - 1) * gapWidth) / count);
		const keysWidth = Math.min(Math.max(0, ...keys.filter(length => length <= 14)) + 2, Math.floor(columnWidth / 2));
		const blocks = sections.flatMap((section, index) => {
			const heading: HelpRow[] = [...(index > 0 ? [{type: 'gap'} as const] : []), {type: 'heading', text: section.heading}];
			const entries = sectionRows(section, columnWidth, keysWidth);
			// A heading stays with its first entry.
			return [[...heading, ...(entries[0] ?? [])], ...entries.slice(1)];
		});
		const total = blocks.reduce((sum, block) => sum + block.length, 0);
		const fits = fill(blocks, count, visibleRows);
		if (fits || count === most) {
			// Balanced: the smallest height that still takes no more columns.
			let capacity = Math.ceil(total / count);
			let columns = fill(blocks, count, capacity);
			while (!columns) {
				capacity++;
				columns = fill(blocks, count, capacity);
			}

			layout = {columns, columnWidth, keysWidth, rowCount: Math.max(...columns.map(column => column.length)), visibleRows};
			break;
		}
	}

	return layout!;
}

import {Box, Text} from 'ink';
import {fit} from '../format/fit.js';
import {useServices, type Tone} from '../ui/app-context.js';

export type Column = {
	readonly title: string;
	/** Columns; the one column with `flex` takes what is left. */
	readonly width: number;
	readonly align?: 'left' | 'right';
	readonly flex?: boolean;
};

export type Row = {
	readonly key: string;
	readonly cells: readonly string[];
	readonly dim?: boolean;
	readonly tone?: Tone;
	/** Drawn after the first cell across all the others (a row that is loading or failing). */
	readonly span?: string;
};

type Props = {
	readonly columns: readonly Column[];
	readonly rows: readonly Row[];
	readonly selected: number;
	/** Lines available, the header line included. */
	readonly height: number;
	readonly width: number;
	/** Index of the sorted column and its direction, for the header marker. */
	readonly sort?: {readonly column: number; readonly descending: boolean};
	readonly emptyText?: string;
};

/** Widths that fill `total`: fixed columns as given, the flex column takes the rest. */
export function layoutColumns(columns: readonly Column[], total: number): number[] {
	const gaps = columns.length - 1;
	const fixed = columns.reduce((sum, column) => sum + (column.flex ? 0 : column.width), 0);
	return columns.map(column => (column.flex ? Math.max(column.width, total - fixed - gaps) : column.width));
}

/** The window of rows to draw so that the selected row is visible. */
export function visibleWindow(count: number, selected: number, height: number): {start: number; end: number} {
	if (count <= height) {
		return {start: 0, end: count};
	}

	const start = Math.max(0, Math.min(selected - Math.floor(height / 2), count - height));
	return {start, end: start + height};
}

/**
A compact, virtualised table: one Text per visible row, so 2,000 rows cost what a screenful does.
The selected row is drawn inverse.
*/
export function Table({columns, rows, selected, height, width, sort, emptyText = 'nothing to show'}: Props) {
	const {colors, glyphs} = useServices();
	const widths = layoutColumns(columns, width);
	const line = (cells: readonly string[]) => cells.map((cell, index) => fit(cell, widths[index]!, columns[index]!.align, glyphs.ellipsis)).join(' ');
	const spanned = (first: string, span: string) => `${fit(first, widths[0]!, columns[0]!.align, glyphs.ellipsis)} ${fit(span, Math.max(0, width - widths[0]! - 1), 'left', glyphs.ellipsis)}`;
	// The sort marker always shows: a title too long for it gives up its last letter.
	const header = line(columns.map((column, index) => (sort?.column === index ? `${column.title.slice(0, Math.max(0, widths[index]! - 1))}${sort.descending ? glyphs.down : glyphs.up}` : column.title)));
	const bodyHeight = Math.max(0, height - 1);
	const {start, end} = visibleWindow(rows.length, selected, bodyHeight);
	return (
		<Box flexDirection="column" height={height}>
			<Text bold color={colors.accent}>{header}</Text>
			{rows.length === 0 ? <Text dimColor>{fit(emptyText, width)}</Text> : rows.slice(start, end).map((row, offset) => {
				const isSelected = start + offset === selected;
				return (
					<Text key={row.key} inverse={isSelected} dimColor={row.dim && !isSelected} color={row.tone ? colors[row.tone] : undefined}>
						{row.span === undefined ? line(row.cells) : spanned(row.cells[0] ?? '', row.span)}
					</Text>
				);
			})}
		</Box>
	);
}

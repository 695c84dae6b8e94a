import {Box, Text} from 'ink';
import {fit} from '../format/fit.js';
import type {Column, Row} from '../rows/row.js';
import {useServices} from './services.js';

type Props = {
	readonly columns: readonly Column[];
	readonly rows: readonly Row[];
	/** The widest content of each column (see `contentWidths`); columns take no more than they need. */
	readonly contentWidths?: readonly number[];
	readonly selected: number;
	/** Lines available, the header line included. */
	readonly height: number;
	readonly width: number;
	/** Index of the sorted column and its direction, for the header marker. */
	readonly sort?: {readonly column: number; readonly descending: boolean};
	readonly emptyText?: string;
	/** A warning to show with no rows instead (in the warning colour, wrapped over the lines there are, not cut at the width). */
	readonly emptyWarning?: string;
	/** Another text for a cell (a trend drawn from history); undefined keeps the row's own. */
	readonly cell?: (key: string, column: number, text: string) => string | undefined;
};

/**
Widths that fit `total`: each column as wide as its content (at least its title, at most its
`width`); the flex column takes what its content needs of the room left. Room nobody needs stays
at the right end, so columns sit together rather than spread out.
*/
export function layoutColumns(columns: readonly Column[], total: number, content?: readonly number[]): number[] {
	const gaps = columns.length - 1;
	const want = columns.map((column, index) => Math.max(column.title.length, Math.min(column.width, content?.[index] ?? column.width)));
	const fixed = columns.reduce((sum, column, index) => sum + (column.flex ? 0 : want[index]!), 0);
	return columns.map((column, index) => {
		if (!column.flex) {
			return want[index]!;
		}

		const room = total - fixed - gaps;
		const needs = Math.max(column.title.length, content?.[index] ?? column.width);
		return Math.max(column.title.length + 1, Math.min(needs, room));
	});
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
A compact, virtualised table: one Text per visible row, so 10,000 rows cost what a screenful does.
The selected row is drawn inverse.
*/
export function Table({columns, rows, contentWidths, selected, height, width, sort, emptyText = 'nothing to show', emptyWarning, cell}: Props) {
	const {colors, glyphs} = useServices();
	const widths = layoutColumns(columns, width, contentWidths);
	const used = Math.min(
		width,
		widths.reduce((sum, columnWidth) => sum + columnWidth + 1, -1),
	);
	const line = (cells: readonly string[]) => cells.map((text, index) => fit(text, widths[index] ?? 0, columns[index]?.align, glyphs.ellipsis)).join(' ');
	const cellsOf = (row: Row) => (cell ? row.cells.map((text, index) => cell(row.key, index, text) ?? text) : row.cells);
	const spanned = (first: string, span: string) =>
		`${fit(first, widths[0] ?? 0, columns[0]?.align, glyphs.ellipsis)} ${fit(span, Math.max(0, used - (widths[0] ?? 0) - 1), 'left', glyphs.ellipsis)}`;
	// The sort marker always shows: a title too long for it gives up its last letter.
	const header = line(
		columns.map((column, index) =>
			sort?.column === index ? `${column.title.slice(0, Math.max(0, (widths[index] ?? 1) - 1))}${sort.descending ? glyphs.down : glyphs.up}` : column.title,
		),
	);
	const bodyHeight = Math.max(0, height - 1);
	const {start, end} = visibleWindow(rows.length, selected, bodyHeight);
	return (
		<Box flexDirection='column' height={height}>
			<Text bold wrap='truncate' color={colors.accent}>
				{header}
			</Text>
			{rows.length === 0 && emptyWarning !== undefined ? (
				<Box width={width} height={bodyHeight} overflow='hidden'>
					<Text color={colors.bad} wrap='wrap'>
						{emptyWarning}
					</Text>
				</Box>
			) : rows.length === 0 ? (
				<Text dimColor>{fit(emptyText, width)}</Text>
			) : (
				rows.slice(start, end).map((row, offset) => {
					const isSelected = start + offset === selected;
					return (
						<Text key={row.key} wrap='truncate' inverse={isSelected} dimColor={Boolean(row.dim) && !isSelected} color={row.tone ? colors[row.tone] : undefined}>
							{row.span === undefined ? line(cellsOf(row)) : spanned(row.cells[0] ?? '', row.span)}
						</Text>
					);
				})
			)}
		</Box>
	);
}

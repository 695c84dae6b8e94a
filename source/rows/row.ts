/** How the UI colours a row or a word: by meaning, mapped to colours (or none) by the dashboard. */
export type Tone = 'accent' | 'good' | 'warn' | 'bad' | 'muted';

export type Column = {
	readonly title: string;
	/** The most columns it takes; it takes less when its content is narrower. */
	readonly width: number;
	readonly align?: 'left' | 'right';
	/** The one column that may grow past `width` into room left over (names). */
	readonly flex?: boolean;
	/** What its cells say, where the title does not say it all (`?` lists it under Columns). */
	readonly legend?: string;
	/** The `/` filter matches this column's text (only columns shown, and only text: never a hidden id). */
	readonly search?: boolean;
};

export type Row = {
	readonly key: string;
	readonly cells: readonly string[];
	readonly dim?: boolean;
	readonly tone?: Tone;
	/** Drawn after the first cell across all the others (a row that is loading or failing). */
	readonly span?: string;
	/** Raises each width to this row's cell length, when a row can tell it for less than making its cells (contentWidths reads every row). */
	readonly widen?: (widths: number[]) => void;
};

export type SortableRow = Row & {
	/** One value per column, for sorting by that column. */
	readonly sortValues: ReadonlyArray<string | number | undefined>;
	/** What the `/` filter searches: the text of the row's columns marked `search`, one a line (so `.` never spans two). */
	readonly searchText: string;
};

/** Raises each width to this row's cell in that column. */
function raiseTo(widths: number[], row: Row): void {
	if (row.span !== undefined) {
		widths[0] = Math.max(widths[0] ?? 0, row.cells[0]?.length ?? 0);
		return;
	}

	if (row.widen) {
		row.widen(widths);
		return;
	}

	const {cells} = row;
	for (const [index, {length}] of cells.entries()) {
		if (length > (widths[index] ?? 0)) {
			widths[index] = length;
		}
	}
}

/** The widest cell of each column over all rows (characters): columns are sized to their content. */
export function contentWidths(columns: readonly Column[], rows: readonly Row[]): number[] {
	const widths = columns.map(column => column.title.length);
	for (const row of rows) {
		raiseTo(widths, row);
	}

	return widths;
}

/** One row's cell widths, column by column (0 where it has nothing), into `widths` (a list kept for it: 10,000 rows measured make no list each). */
export function rowWidths(row: Row, widths: number[]): number[] {
	widths.fill(0);
	raiseTo(widths, row);
	return widths;
}

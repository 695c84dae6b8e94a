import {rowWidths, type Column, type Row} from './row.js';

/**
A list's column widths kept over a changing set of rows: per column how many rows have each width,
so a poll that replaces a few rows of thousands measures those few (a row let go that was the widest
narrows its column only if no other row is as wide). A row's widths are not kept: one let go is
measured again (its cells are what they were), so 10,000 rows made at once keep no list each.
*/
export class ColumnWidths {
	readonly #columns: readonly Column[];
	/** Per column, how many rows have each width. */
	readonly #counts: Array<Map<number, number>>;
	/** The row being added or taken out, measured. */
	readonly #measured: number[];

	constructor(columns: readonly Column[]) {
		this.#columns = columns;
		this.#counts = columns.map(() => new Map<number, number>());
		this.#measured = columns.map(() => 0);
	}

	add(row: Row): void {
		const widths = rowWidths(row, this.#measured);
		for (const [index, width] of widths.entries()) {
			const counts = this.#counts[index]!;
			counts.set(width, (counts.get(width) ?? 0) + 1);
		}
	}

	/** Takes out a row that was added. */
	remove(row: Row): void {
		const widths = rowWidths(row, this.#measured);
		for (const [index, width] of widths.entries()) {
			const counts = this.#counts[index]!;
			const count = (counts.get(width) ?? 0) - 1;
			if (count > 0) {
				counts.set(width, count);
			} else {
				counts.delete(width);
			}
		}
	}

	/** Each column's widest cell, at least its title (the few widths rows have, not the rows, are read). */
	widths(): number[] {
		return this.#columns.map((column, index) => Math.max(column.title.length, ...this.#counts[index]!.keys()));
	}
}

/**
How a chart is drawn: braille (2×4 dots a cell, as btop), blocks (eighths of a cell, one column a
cell) or ASCII for `--ascii` (halves of a cell).
*/
export type ChartStyle = 'braille' | 'blocks' | 'ascii';

/** Dots per cell across and down, per style: a chart of `width` cells takes `width × x` values. */
export const cellDots: Readonly<Record<ChartStyle, {readonly x: number; readonly y: number}>> = {
	braille: {x: 2, y: 4},
	blocks: {x: 1, y: 8},
	ascii: {x: 1, y: 2},
};

export type ChartLayer = {
	/**
	`area` fills from the bottom to the value; `line` joins the values; `band` fills from `bottom` to
	the value, both included (a rollup's min–max); `stack` fills above `bottom` to the value (a
	stacked area: nothing when the two are equal).
	*/
	readonly kind: 'area' | 'line' | 'band' | 'stack';
	/** One value per dot column; null is a gap, drawn as nothing (never as zero). */
	readonly values: ReadonlyArray<number | null>;
	readonly bottom?: ReadonlyArray<number | null>;
};

/** One character of a chart, and the layer it shows (the first layer, in the order given, with a dot in the cell). */
export type ChartCell = {readonly char: string; readonly layer: number | undefined};

type Options = {
	readonly layers: readonly ChartLayer[];
	readonly style: ChartStyle;
	/** Cells across and down. */
	readonly width: number;
	readonly height: number;
	/** The values at the bottom and top dot rows. */
	readonly min: number;
	readonly max: number;
};

const brailleBits = [
	[0x01, 0x08],
	[0x02, 0x10],
	[0x04, 0x20],
	[0x40, 0x80],
];
const eighths = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/**
Draws layers of values as rows of characters, top row first. A value at `min` still shows one dot
(the bottom row), so a zero is visible and only a gap is empty.
*/
export function drawChart({layers, style, width, height, min, max}: Options): ChartCell[][] {
	const dots = cellDots[style];
	const rows = Math.max(0, height) * dots.y;
	const columns = Math.max(0, width) * dots.x;
	const bits: number[][] = Array.from({length: height}, () => Array.from({length: width}, () => 0));
	const owner: Array<Array<number | undefined>> = Array.from({length: height}, () => Array.from({length: width}, () => undefined));
	const span = max - min;
	const level = (value: number) => (span <= 0 ? 0 : Math.max(0, Math.min(rows - 1, Math.round(((value - min) / span) * (rows - 1)))));
	const set = (x: number, dot: number, layer: number) => {
		const row = height - 1 - Math.floor(dot / dots.y);
		const column = Math.floor(x / dots.x);
		const fromBottom = dot % dots.y;
		const bit = style === 'braille' ? brailleBits[dots.y - 1 - fromBottom]![x % dots.x]! : 2 ** fromBottom;
		// eslint-disable-next-line no-bitwise -- a cell's dots are the bits of its braille code point (or of its block's height)
		bits[row]![column] = bits[row]![column]! | bit;
		const current = owner[row]![column];
		if (current === undefined || layer < current) {
			owner[row]![column] = layer;
		}
	};

	const fill = (x: number, from: number, to: number, layer: number) => {
		for (let dot = from; dot <= to; dot++) {
			set(x, dot, layer);
		}
	};

	for (const [index, layer] of layers.entries()) {
		let before: number | undefined;
		for (let x = 0; x < columns; x++) {
			const value = layer.values[x] ?? null;
			if (value === null || rows === 0) {
				before = undefined;
				continue;
			}

			const top = level(value);
			const bottom = layer.bottom?.[x] ?? null;
			switch (layer.kind) {
				case 'area': {
					fill(x, 0, top, index);
					break;
				}

				case 'band': {
					fill(x, bottom === null ? top : Math.min(level(bottom), top), top, index);
					break;
				}

				case 'stack': {
					if (bottom === null) {
						fill(x, 0, top, index);
					} else if (value > bottom) {
						fill(x, Math.min(top, level(bottom) + 1), top, index);
					}

					break;
				}

				case 'line': {
					// Joined to the value before it: a steep change is a vertical run, not scattered dots.
					if (before === undefined || before === top) {
						set(x, top, index);
					} else {
						fill(x, before < top ? before + 1 : top, before < top ? top : before - 1, index);
					}

					break;
				}
			}

			before = top;
		}
	}

	return bits.map((row, rowIndex) =>
		row.map((cellBits, column) => {
			const layer = owner[rowIndex]![column];
			return {char: encode(style, cellBits, layer === undefined ? undefined : layers[layer]?.kind), layer};
		}),
	);
}

function encode(style: ChartStyle, cellBits: number, kind: ChartLayer['kind'] | undefined): string {
	if (cellBits === 0) {
		return ' ';
	}

	switch (style) {
		case 'braille': {
			return String.fromCodePoint(0x28_00 + cellBits);
		}

		case 'blocks': {
			// As high as its highest dot: areas and stacks rise from the bottom of the cell.
			return eighths[31 - Math.clz32(cellBits)]!;
		}

		case 'ascii': {
			return kind === 'line' ? '*' : cellBits === 3 ? '#' : cellBits === 1 ? '.' : "'";
		}
	}
}

/** A row of cells as runs of the same layer, for drawing each run in its layer's colour. */
export function cellRuns(row: readonly ChartCell[]): Array<{text: string; layer: number | undefined}> {
	const runs: Array<{text: string; layer: number | undefined}> = [];
	for (const cell of row) {
		const last = runs.at(-1);
		if (last && (last.layer === cell.layer || cell.char === ' ')) {
			last.text += cell.char;
		} else {
			runs.push({text: cell.char, layer: cell.layer});
		}
	}

	return runs;
}

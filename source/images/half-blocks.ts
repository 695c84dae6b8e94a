import {Chalk, type ColorSupportLevel} from 'chalk';
import {pixelAt, type Pixels, type Rgb} from './pixels.js';

/** One terminal cell of a picture: `▀` in the top pixel's colour on the bottom pixel's (none under an odd last row). */
export type Cell = {readonly top: Rgb; readonly bottom: Rgb | undefined};

/** The upper half block: its foreground is the top pixel, its background the bottom one. */
export const halfBlock = '▀';

/** Pixels as cells, two rows of pixels to a row of cells. */
export function halfBlockCells(pixels: Pixels): Cell[][] {
	return Array.from({length: Math.ceil(pixels.height / 2)}, (_, row) =>
		Array.from({length: pixels.width}, (_, x) => ({
			top: pixelAt(pixels, x, row * 2),
			bottom: row * 2 + 1 < pixels.height ? pixelAt(pixels, x, row * 2 + 1) : undefined,
		})),
	);
}

/**
Cells as terminal lines at a colour depth (3 truecolor, 2 the 256 colours, 1 the 16): chalk turns the
exact colours into the nearest the terminal has, as Ink's own colours are. Each line resets at its end.
*/
export function halfBlockLines(cells: ReadonlyArray<readonly Cell[]>, level: Exclude<ColorSupportLevel, 0>): string[] {
	const chalk = new Chalk({level});
	return cells.map(row =>
		row
			.map(({top, bottom}) => {
				const foreground = chalk.rgb(...top);
				return bottom ? foreground.bgRgb(...bottom)(halfBlock) : foreground(halfBlock);
			})
			.join(''),
	);
}

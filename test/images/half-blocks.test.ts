import {PNG} from 'pngjs';
import {describe, expect, test} from 'vitest';
import {decodePicture} from '../../source/images/decode-picture.js';
import {halfBlock, halfBlockCells, halfBlockLines} from '../../source/images/half-blocks.js';
import {ImageError} from '../../source/images/image-error.js';
import {pictureSize, type Rgb} from '../../source/images/pixels.js';
import {encodeJpeg} from '../../source/sim/images/jpeg.js';
import {encodePng} from '../../source/sim/images/png.js';
import {ansiCells, truecolor, truecolorBg} from '../helpers/ansi-cells.js';

/** A 4×4 picture, every pixel its own colour: row y, column x is (x·60, y·60, 200 − x·10 − y·40). */
const colourAt = (x: number, y: number) => [x * 60, y * 60, 200 - x * 10 - y * 40] as const;
const small = encodePng(4, 4, colourAt);

describe('half-blocks', () => {
	test('a 4×4 PNG is 2 rows of 4 cells: ▀ in the top pixel on the bottom pixel, exact colours in exact cells', () => {
		const pixels = decodePicture(small, {columns: 80, rows: 24});
		expect([pixels.width, pixels.height]).toEqual([4, 4]);
		const cells = halfBlockCells(pixels);
		expect(cells).toHaveLength(2);
		for (const [row, line] of cells.entries()) {
			expect(line).toHaveLength(4);
			for (const [x, cell] of line.entries()) {
				expect(cell.top).toEqual(colourAt(x, row * 2));
				expect(cell.bottom).toEqual(colourAt(x, row * 2 + 1));
			}
		}

		// The same, read back from the terminal line as a terminal would.
		const lines = halfBlockLines(cells, 3);
		for (const [row, line] of lines.entries()) {
			expect(ansiCells(line)).toEqual(
				Array.from({length: 4}, (_, x) => ({char: halfBlock, fg: truecolor(colourAt(x, row * 2)), bg: truecolorBg(colourAt(x, row * 2 + 1))})),
			);
			// Nothing is left switched on after the line.
			expect(ansiCells(`${line}x`).at(-1)).toEqual({char: 'x', fg: undefined, bg: undefined});
		}
	});

	test('an 8×8 PNG in a 4-column box: each cell pixel is the mean of the 2×2 it covers', () => {
		const picture = (x: number, y: number) => [(x % 2) * 100 + (y % 2) * 50, x * 30, y * 30] as const;
		const pixels = decodePicture(encodePng(8, 8, picture), {columns: 4, rows: 10});
		expect([pixels.width, pixels.height]).toEqual([4, 4]);
		const cells = halfBlockCells(pixels);
		const mean = (x: number, y: number) => {
			const four = [picture(x * 2, y * 2), picture(x * 2 + 1, y * 2), picture(x * 2, y * 2 + 1), picture(x * 2 + 1, y * 2 + 1)];
			return [0, 1, 2].map(channel => Math.round(four.reduce((sum, pixel) => sum + pixel[channel]!, 0) / 4));
		};

		for (const [row, line] of cells.entries()) {
			for (const [x, cell] of line.entries()) {
				expect(cell.top).toEqual(mean(x, row * 2));
				expect(cell.bottom).toEqual(mean(x, row * 2 + 1));
			}
		}
	});

	test('transparency is laid over black; an odd last row has no background', () => {
		const png = new PNG({width: 2, height: 3});
		png.data.set([255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0, 10, 20, 30, 255, 200, 100, 50, 255, 1, 2, 3, 255]);
		const cells = halfBlockCells(decodePicture(PNG.sync.write(png), {columns: 10, rows: 10}));
		expect(cells).toEqual([
			[
				{top: [255, 0, 0], bottom: [0, 0, 0]},
				{top: [0, 128, 0], bottom: [10, 20, 30]},
			],
			[
				{top: [200, 100, 50], bottom: undefined},
				{top: [1, 2, 3], bottom: undefined},
			],
		]);
		expect(ansiCells(halfBlockLines(cells, 3)[1]!)[0]).toEqual({char: halfBlock, fg: truecolor([200, 100, 50]), bg: undefined});
	});

	test('256 colours: chalk picks the nearest of the palette', () => {
		const [line] = halfBlockLines([[{top: [255, 0, 0], bottom: [0, 0, 255]}]], 2);
		expect(ansiCells(line!)).toEqual([{char: halfBlock, fg: '38;5;196', bg: '48;5;21'}]);
	});

	test('the aspect is kept and nothing is enlarged', () => {
		expect(pictureSize({width: 1024, height: 1024}, {columns: 100, rows: 20})).toEqual({width: 40, height: 40});
		expect(pictureSize({width: 1536, height: 768}, {columns: 60, rows: 40})).toEqual({width: 60, height: 30});
		expect(pictureSize({width: 4, height: 4}, {columns: 100, rows: 40})).toEqual({width: 4, height: 4});
	});

	test("the simulator's JPEG decodes to its colours (each 8×8 block keeps its mean)", () => {
		const blocks = (x: number, y: number): Rgb => (x < 8 ? (y < 8 ? [200, 40, 40] : [40, 200, 40]) : y < 8 ? [40, 40, 200] : [230, 230, 230]);
		const cells = halfBlockCells(decodePicture(encodeJpeg(16, 16, blocks), {columns: 2, rows: 1}));
		const near = (actual: readonly number[] | undefined, expected: readonly number[]) => {
			expect(
				actual!.every((value, index) => Math.abs(value - expected[index]!) <= 3),
				`${String(actual)} ≈ ${String(expected)}`,
			).toBe(true);
		};

		near(cells[0]![0]!.top, [200, 40, 40]);
		near(cells[0]![0]!.bottom, [40, 200, 40]);
		near(cells[0]![1]!.top, [40, 40, 200]);
		near(cells[0]![1]!.bottom, [230, 230, 230]);
	});

	test('a truncated PNG or JPEG is broken, said in a sentence, and nothing is drawn', () => {
		const png = encodePng(64, 64, (x, y) => [x * 4, y * 4, (x * y) % 256]);
		const jpg = encodeJpeg(64, 64, (x, y) => [x * 4, y * 4, (x * y) % 256]);
		for (const [bytes, type] of [
			[png.subarray(0, -40), 'PNG'],
			[jpg.subarray(0, Math.floor(jpg.length * 0.6)), 'JPEG'],
		] as const) {
			const error = (() => {
				try {
					decodePicture(bytes, {columns: 20, rows: 10});
				} catch (error) {
					return error;
				}
			})();
			expect(error).toBeInstanceOf(ImageError);
			expect((error as ImageError).kind).toBe('broken');
			expect((error as ImageError).message).toMatch(
				new RegExp(String.raw`^the ${type} is broken \(it ends after [\d,]+ bytes, before its end marker: cut short\); nothing drawn$`),
			);
		}
	});

	test('bytes that are no image, or a format podtop does not draw, say so', () => {
		expect(() => decodePicture(Buffer.from('<html>not found</html>'), {columns: 20, rows: 10})).toThrow(/not an image podtop recognises/);
		const gif = Buffer.from('R0lGODlhAQABAIAAAP///wAAACwAAAAAAQABAAACAkQBADs=', 'base64');
		expect(() => decodePicture(gif, {columns: 20, rows: 10})).toThrow('podtop draws PNG and JPEG; this image is GIF');
	});
});

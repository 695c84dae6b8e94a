/** A colour as red, green, blue, each 0–255. */
export type Rgb = readonly [number, number, number];

/** A small picture in memory: `width` × `height` pixels, three bytes (RGB) each, row by row. */
export type Pixels = {
	readonly width: number;
	readonly height: number;
	readonly data: Uint8Array;
};

export const pixelAt = (pixels: Pixels, x: number, y: number): Rgb => {
	const at = (y * pixels.width + x) * 3;
	return [pixels.data[at]!, pixels.data[at + 1]!, pixels.data[at + 2]!];
};

/**
The size in pixels to draw an image of `width` × `height` in a box of cells, two pixels to a cell
(half-blocks: a cell is about twice as tall as wide, so the pixels come out square): as large as
fits, its aspect kept, never enlarged.
*/
export function pictureSize(
	image: {readonly width: number; readonly height: number},
	box: {readonly columns: number; readonly rows: number},
): {width: number; height: number} {
	const scale = Math.min(1, box.columns / image.width, (box.rows * 2) / image.height);
	return {width: Math.max(1, Math.round(image.width * scale)), height: Math.max(1, Math.round(image.height * scale))};
}

/** For each target index, the source indices it covers and how much of each (weights add up to 1). */
function spans(from: number, to: number): Array<Array<[number, number]>> {
	const ratio = from / to;
	return Array.from({length: to}, (_, index) => {
		const start = index * ratio;
		const end = start + ratio;
		const covered: Array<[number, number]> = [];
		for (let source = Math.floor(start); source < Math.min(from, Math.ceil(end)); source++) {
			const weight = Math.min(end, source + 1) - Math.max(start, source);
			if (weight > 1e-9) {
				covered.push([source, weight / ratio]);
			}
		}

		return covered;
	});
}

/**
Shrinks decoded pixels (RGB or RGBA, `channels` bytes each) to `width` × `height` by averaging the
area each target pixel covers (so thin lines fade instead of vanishing at random); transparent
pixels are laid over black. Reads `source` once; the result is small and owns its bytes.
*/
export function scalePixels(
	source: {readonly width: number; readonly height: number; readonly data: Uint8Array},
	channels: 3 | 4,
	width: number,
	height: number,
): Pixels {
	const columns = spans(source.width, width);
	const rows = spans(source.height, height);
	const data = new Uint8Array(width * height * 3);
	const sums = new Float64Array(width * 3);
	for (const [y, covered] of rows.entries()) {
		sums.fill(0);
		for (const [sourceY, weightY] of covered) {
			const line = sourceY * source.width * channels;
			for (const [x, coveredX] of columns.entries()) {
				let red = 0;
				let green = 0;
				let blue = 0;
				for (const [sourceX, weightX] of coveredX) {
					const at = line + sourceX * channels;
					const alpha = channels === 4 ? source.data[at + 3]! / 255 : 1;
					const weight = weightX * alpha;
					red += source.data[at]! * weight;
					green += source.data[at + 1]! * weight;
					blue += source.data[at + 2]! * weight;
				}

				sums[x * 3] = sums[x * 3]! + red * weightY;
				sums[x * 3 + 1] = sums[x * 3 + 1]! + green * weightY;
				sums[x * 3 + 2] = sums[x * 3 + 2]! + blue * weightY;
			}
		}

		for (let index = 0; index < width * 3; index++) {
			data[y * width * 3 + index] = Math.min(255, Math.round(sums[index]!));
		}
	}

	return {width, height, data};
}

import type {Rgb} from './picture.js';

/** Writes bits most significant first, stuffing a 0x00 after every 0xFF byte as JPEG requires. */
class BitWriter {
	readonly #bytes: number[] = [];
	#current = 0;
	#count = 0;

	write(value: number, length: number): void {
		for (let bit = length - 1; bit >= 0; bit--) {
			this.#current = (this.#current << 1) | ((value >> bit) & 1);
			this.#count++;
			if (this.#count === 8) {
				this.#push(this.#current);
				this.#current = 0;
				this.#count = 0;
			}
		}
	}

	/** Pads the last byte with 1 bits. */
	finish(): number[] {
		if (this.#count > 0) {
			this.#push((this.#current << (8 - this.#count)) | ((1 << (8 - this.#count)) - 1));
		}

		return this.#bytes;
	}

	#push(byte: number): void {
		this.#bytes.push(byte);
		if (byte === 0xff) {
			this.#bytes.push(0);
		}
	}
}

const segment = (marker: number, data: readonly number[]) => [0xff, marker, (data.length + 2) >> 8, (data.length + 2) & 0xff, ...data];

/** The DC table: categories 0–11, each a 4-bit code (0000–1011), so no code is all ones. */
const dcTable = [0x00, 0, 0, 0, 12, ...Array.from({length: 12}, () => 0), ...Array.from({length: 12}, (_, category) => category)];
/** The AC table: end-of-block (00) and zero-run (01), two 2-bit codes; every block here ends after its DC. */
const acTable = [0x10, 0, 2, ...Array.from({length: 14}, () => 0), 0x00, 0xf0];
const quantizer = 8;

/** A diff as JPEG codes it: its size category and its bits (negatives in one's complement). */
function category(value: number): {size: number; bits: number} {
	const size = value === 0 ? 0 : Math.floor(Math.log2(Math.abs(value))) + 1;
	return {size, bits: value < 0 ? value + (1 << size) - 1 : value};
}

/**
A baseline JPEG of `width` × `height` pixels in colour (YCbCr, no subsampling). Each 8×8 block keeps
only its mean colour (the DC term), which is plenty for a generated stand-in picture and keeps the
encoder to a page.
*/
export function encodeJpeg(width: number, height: number, pixel: (x: number, y: number) => Rgb): Buffer {
	const header = [
		0xff,
		0xd8,
		...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]),
		...segment(0xdb, [0x00, ...Array.from({length: 64}, () => quantizer)]),
		...segment(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0]),
		...segment(0xc4, [...dcTable, ...acTable]),
		...segment(0xda, [3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0]),
	];
	const bits = new BitWriter();
	const previous = [0, 0, 0];
	for (let blockY = 0; blockY < Math.ceil(height / 8); blockY++) {
		for (let blockX = 0; blockX < Math.ceil(width / 8); blockX++) {
			const [r, g, b] = pixel(Math.min(width - 1, blockX * 8 + 4), Math.min(height - 1, blockY * 8 + 4));
			const components = [0.299 * r + 0.587 * g + 0.114 * b, 128 - 0.168_736 * r - 0.331_264 * g + 0.5 * b, 128 + 0.5 * r - 0.418_688 * g - 0.081_312 * b];
			for (const [index, value] of components.entries()) {
				// The DC coefficient of a flat block is 8 × (value − 128); quantised by 8, that is value − 128.
				const dc = Math.max(-128, Math.min(127, Math.round(value - 128)));
				const {size, bits: extra} = category(dc - previous[index]!);
				previous[index] = dc;
				bits.write(size, 4);
				if (size > 0) {
					bits.write(extra, size);
				}

				// End of block: no AC terms.
				bits.write(0b00, 2);
			}
		}
	}

	return Buffer.from([...header, ...bits.finish(), 0xff, 0xd9]);
}

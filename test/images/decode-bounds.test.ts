import {deflateSync} from 'node:zlib';
import {describe, expect, test} from 'vitest';
import {decodePicture} from '../../source/images/decode-picture.js';
import {ImageError} from '../../source/images/image-error.js';
import {inflatedSize, pngDecodedLimit} from '../../source/images/png-bounds.js';
import {jpegScanLimit} from '../../source/images/jpeg-bounds.js';
import {encodeJpeg} from '../../source/sim/images/jpeg.js';
import {chunk, png, zeros} from '../helpers/png-bombs.js';

const mb = 1024 * 1024;
/** The error `decodePicture` throws, and how much the process's peak memory grew meanwhile (in MB). */
function refusal(bytes: Buffer): {error: unknown; grownMb: number} {
	const before = process.resourceUsage().maxRSS;
	let error: unknown;
	try {
		decodePicture(bytes, {columns: 80, rows: 24});
	} catch (error_) {
		error = error_;
	}

	return {error, grownMb: (process.resourceUsage().maxRSS - before) / 1024};
}

describe('decompression bombs', () => {
	test('an interlaced 64×64 PNG whose data inflates to 256 MB: refused when the inflating passes the 16,504 bytes its header promises, memory untouched', () => {
		const bomb = png(64, 64, true, zeros(256 * mb));
		expect(bomb.length).toBeLessThan(mb);
		const {error, grownMb} = refusal(bomb);
		expect(error).toBeInstanceOf(ImageError);
		expect((error as ImageError).message).toBe('picture refused: its data inflates past the 16,504 bytes its 64×64 header promises');
		// Without the bound pngjs holds all 256 MB at once.
		expect(grownMb).toBeLessThan(64);
	});

	test('an interlaced 4096×4096 PNG of zeros whose data inflates to twice its header: refused at the header, 64 MB', () => {
		const promised = inflatedSize({width: 4096, height: 4096, bitDepth: 8, colorType: 6, interlaced: true});
		expect(promised).toBeGreaterThan(64 * mb);
		expect(promised).toBeLessThan(64.1 * mb);
		const bomb = png(4096, 4096, true, zeros(128 * mb));
		expect(bomb.length).toBeLessThan(mb);
		const {error, grownMb} = refusal(bomb);
		expect((error as ImageError).message).toBe('picture refused: its data inflates past the 64.0 MB its 4096×4096 header promises');
		expect((error as ImageError).kind).toBe('too-large');
		// The check holds at most the 64 MB the header promises; pngjs would have held 128, then the bitmaps.
		expect(grownMb).toBeLessThan(110);
	});

	test('a 16-bit PNG of 4096×4096 (128 MB of bitmap) is refused before anything is inflated; the exact size of its data is read from its header', () => {
		const header = Buffer.alloc(13);
		header.writeUInt32BE(4096, 0);
		header.writeUInt32BE(4096, 4);
		header.set([16, 6, 0, 0, 0], 8);
		const deep = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', header), chunk('IDAT', zeros(mb)), chunk('IEND', Buffer.alloc(0))]);
		const {error} = refusal(deep);
		expect((error as ImageError).message).toBe(
			`picture refused: it decodes to 128.0 MB (4096×4096 at 16 bits a sample), over the ${(pngDecodedLimit / mb).toFixed(1)} MB podtop decodes`,
		);

		// Rows of 1 filter byte and ceil(width × bits / 8) bytes, pass by pass (Adam7's passes of a 10×3 picture: 2×1, 1×1, 3×0, 2×1, 5×1, 5×2 and 10×1 pixels).
		expect(inflatedSize({width: 10, height: 3, bitDepth: 8, colorType: 2, interlaced: false})).toBe(3 * 31);
		expect(inflatedSize({width: 10, height: 3, bitDepth: 1, colorType: 0, interlaced: false})).toBe(3 * 3);
		expect(inflatedSize({width: 10, height: 3, bitDepth: 8, colorType: 0, interlaced: true})).toBe(3 + 2 + 0 + 3 + 6 + 2 * 6 + 11);
	});

	test('a PNG whose data inflates exactly to its header still draws, interlaced or not', () => {
		for (const interlaced of [false, true]) {
			const size = inflatedSize({width: 16, height: 8, bitDepth: 8, colorType: 6, interlaced});
			const pixels = decodePicture(png(16, 8, interlaced, deflateSync(Buffer.alloc(size))), {columns: 80, rows: 24});
			expect([pixels.width, pixels.height]).toEqual([16, 8]);
		}
	});

	test(`a JPEG of more than ${jpegScanLimit} scans (a progressive CPU bomb) is refused before any is decoded`, () => {
		const jpeg = encodeJpeg(16, 16, () => [10, 200, 30]);
		expect(decodePicture(jpeg, {columns: 8, rows: 8}).width).toBe(8);
		// Its one scan (SOS to EOI) said 1,000 times over.
		const sos = jpeg.indexOf(Buffer.from([0xff, 0xda]));
		const scan = jpeg.subarray(sos, -2);
		const bomb = Buffer.concat([jpeg.subarray(0, sos), ...Array.from({length: 1000}, () => scan), Buffer.from([0xff, 0xd9])]);
		const {error} = refusal(bomb);
		expect((error as ImageError).message).toBe(`picture refused: the JPEG has 1,000 scans, over the ${jpegScanLimit} podtop decodes`);
	});
});

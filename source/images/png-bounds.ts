import {inflateSync} from 'node:zlib';
import {ImageError, megabytes} from './image-error.js';

/** What a PNG's IHDR says, and its IDAT chunks' bytes joined. */
export type PngLayout = {
	readonly width: number;
	readonly height: number;
	readonly bitDepth: number;
	readonly colorType: number;
	readonly interlaced: boolean;
	readonly idat: Buffer;
};

/** A size as people read it: bytes under a megabyte, else megabytes. */
const size = (bytes: number) => (bytes < 1024 * 1024 ? `${bytes.toLocaleString('en-US')} bytes` : megabytes(bytes));

/** Samples a pixel for each colour type: grey, -, RGB, palette, grey + alpha, -, RGBA. */
const channels: Readonly<Record<number, number>> = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4};

/** Adam7's seven passes: where each starts and how far apart its pixels are, across and down. */
const adam7 = [
	[0, 0, 8, 8],
	[4, 0, 8, 8],
	[0, 4, 4, 8],
	[2, 0, 4, 4],
	[0, 2, 2, 4],
	[1, 0, 2, 2],
	[0, 1, 1, 2],
] as const;

/** The chunks podtop reads of a PNG: IHDR, and every IDAT joined (the others pngjs reads are small and not compressed). */
export function pngLayout(bytes: Buffer): PngLayout {
	const idat: Buffer[] = [];
	let header: Buffer | undefined;
	let at = 8;
	while (at + 8 <= bytes.length) {
		const length = bytes.readUInt32BE(at);
		const type = bytes.toString('latin1', at + 4, at + 8);
		if (type === 'IEND') {
			break;
		}

		const data = bytes.subarray(at + 8, at + 8 + length);
		if (type === 'IHDR') {
			header = data;
		} else if (type === 'IDAT') {
			idat.push(data);
		}

		at += 12 + length;
	}

	if (header?.length !== 13) {
		throw new ImageError('broken', 'the PNG is broken (no IHDR chunk); nothing drawn');
	}

	return {
		width: header.readUInt32BE(0),
		height: header.readUInt32BE(4),
		bitDepth: header[8]!,
		colorType: header[9]!,
		interlaced: header[12] === 1,
		idat: Buffer.concat(idat),
	};
}

/**
The exact size of a PNG's image data once inflated, from its header alone: for each pass (one, or
Adam7's seven when interlaced) that has pixels, its rows × (1 filter byte + the row's bytes).
*/
export function inflatedSize(layout: Omit<PngLayout, 'idat'>): number {
	const samples = channels[layout.colorType];
	if (samples === undefined || ![1, 2, 4, 8, 16].includes(layout.bitDepth)) {
		throw new ImageError('broken', `the PNG is broken (colour type ${layout.colorType} at ${layout.bitDepth} bits is no PNG format); nothing drawn`);
	}

	const bits = samples * layout.bitDepth;
	const passes = layout.interlaced ? adam7 : ([[0, 0, 1, 1]] as const);
	let size = 0;
	for (const [x, y, across, down] of passes) {
		const columns = Math.ceil((layout.width - x) / across);
		const rows = Math.ceil((layout.height - y) / down);
		if (columns > 0 && rows > 0) {
			size += rows * (1 + Math.ceil((columns * bits) / 8));
		}
	}

	return size;
}

/**
The most podtop lets pngjs decode a PNG to: the bitmap it makes (four samples a pixel, two bytes each
at 16 bits), 64 MB, a 4096 × 4096 RGBA picture at 8 bits. The image data inflated is never larger
than the bitmap and a filter byte a row. A 16-bit picture of more than 8 million pixels is refused.
*/
export const pngDecodedLimit = 4096 * 4096 * 4;

/**
Checks, before pngjs inflates anything, that a PNG's data inflates to no more than its header says
(and that the header asks no more than `pngDecodedLimit`): it is inflated here by zlib with
`maxOutputLength` at the header's size, so a bomb (a megabyte of IDAT that inflates to gigabytes,
which pngjs inflates whole for an interlaced picture) stops there. Throws an `ImageError` that says why.
*/
export function checkPngInflation(bytes: Buffer): void {
	const layout = pngLayout(bytes);
	const expected = inflatedSize(layout);
	const bitmap = layout.width * layout.height * 4 * (layout.bitDepth > 8 ? 2 : 1);
	if (bitmap > pngDecodedLimit) {
		throw new ImageError(
			'too-large',
			`picture refused: it decodes to ${megabytes(bitmap)} (${layout.width}×${layout.height} at ${layout.bitDepth} bits a sample), over the ${megabytes(pngDecodedLimit)} podtop decodes`,
		);
	}

	try {
		inflateSync(layout.idat, {maxOutputLength: expected});
	} catch (error) {
		if ((error as {code?: string}).code === 'ERR_BUFFER_TOO_LARGE') {
			throw new ImageError('too-large', `picture refused: its data inflates past the ${size(expected)} its ${layout.width}×${layout.height} header promises`, {
				cause: error,
			});
		}

		// Cut short or corrupt (zlib stops there, before the bound): pngjs says how, the file's end marker checked.
	}
}

import jpeg from 'jpeg-js';
import {PNG} from 'pngjs';
import {ImageError, imagePixelLimit} from './image-error.js';
import {imageFacts, type ImageFacts} from './image-facts.js';
import {checkPictureBounds} from './picture-bounds.js';
import {pictureSize, scalePixels, type Pixels} from './pixels.js';

/** A box of terminal cells to draw in. */
export type CellBox = {readonly columns: number; readonly rows: number};

/** What jpeg-js may allocate for one picture (its own count): a 4096 × 4096 one in three components needs about 200 MB. */
export const jpegMemoryLimitMb = 256;

function decodeFull(bytes: Buffer, facts: ImageFacts): {width: number; height: number; data: Uint8Array; channels: 3 | 4} {
	try {
		if (facts.type === 'png') {
			const png = PNG.sync.read(bytes);
			return {width: png.width, height: png.height, data: png.data, channels: 4};
		}

		// Strict: a truncated or corrupt JPEG is an error, not a picture half made of noise.
		const decoded = jpeg.decode(bytes, {
			useTArray: true,
			formatAsRGBA: false,
			tolerantDecoding: false,
			maxResolutionInMP: imagePixelLimit / 1e6,
			maxMemoryUsageInMB: jpegMemoryLimitMb,
		});
		return {width: decoded.width, height: decoded.height, data: decoded.data, channels: 3};
	} catch (error) {
		const reason = endsEarly(bytes, facts)
			? `it ends after ${bytes.length.toLocaleString('en-US')} bytes, before its end marker: cut short`
			: error instanceof Error
				? error.message.replace(/^Error: /, '')
				: String(error);
		throw new ImageError('broken', `the ${facts.type.toUpperCase()} is broken (${reason}); nothing drawn`, {cause: error});
	}
}

/** Whether the file stops before its format's end marker (PNG's IEND chunk, JPEG's EOI): a download cut short. */
function endsEarly(bytes: Buffer, facts: ImageFacts): boolean {
	if (facts.type === 'png') {
		return bytes.lastIndexOf('IEND', undefined, 'latin1') === -1;
	}

	// Some encoders pad after EOI; it must be among the last bytes.
	return !bytes.subarray(-64).includes(Buffer.from([0xff, 0xd9]));
}

/**
Decodes a PNG or JPEG and shrinks it to fit `box` as half-blocks (two pixels a cell), its aspect
kept. Only the small result is kept: the full-size pixels are let go before this returns. A file
that is no image, a format podtop does not draw, one over 4096 × 4096, a bomb (a PNG whose data
inflates past its header or 64 MB, a JPEG of more than 64 scans), or one that does not decode whole
throws an `ImageError` that says so.
*/
export function decodePicture(bytes: Buffer, box: CellBox): Pixels {
	const facts = imageFacts(bytes);
	if (!facts) {
		throw new ImageError('broken', 'the file is not an image podtop recognises (no PNG, JPEG, GIF or WebP header); nothing drawn');
	}

	if (facts.type !== 'png' && facts.type !== 'jpeg') {
		throw new ImageError('unsupported', `podtop draws PNG and JPEG; this image is ${facts.type.toUpperCase()}`);
	}

	checkPictureBounds(bytes, facts);
	const full = decodeFull(bytes, facts);
	if (full.width !== facts.width || full.height !== facts.height || full.data.length < full.width * full.height * full.channels) {
		throw new ImageError('broken', `the ${facts.type.toUpperCase()} is broken (it decodes to fewer pixels than its header says); nothing drawn`);
	}

	const size = pictureSize(full, box);
	return scalePixels(full, full.channels, size.width, size.height);
}

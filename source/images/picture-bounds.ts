import {ImageError, imagePixelLimit} from './image-error.js';
import type {ImageFacts} from './image-facts.js';
import {checkJpegScans} from './jpeg-bounds.js';
import {checkPngInflation} from './png-bounds.js';

/**
Throws an `ImageError` for a PNG or JPEG past what podtop lets be decoded: its pixels, a PNG's
inflated data, a JPEG's scans. Also for pictures handed to the terminal as they are (kitty's PNG,
iTerm2's inline images): the terminal's decoder deserves the same bounds as podtop's own.
*/
export function checkPictureBounds(bytes: Buffer, facts: ImageFacts): void {
	if (facts.width * facts.height > imagePixelLimit) {
		throw new ImageError('too-large', `the image is ${facts.width}×${facts.height}, over the 4096×4096 podtop decodes; not drawn`);
	}

	// Bounds the decoders do not keep themselves: a PNG's inflated data, a JPEG's scans.
	if (facts.type === 'png') {
		checkPngInflation(bytes);
	} else if (facts.type === 'jpeg') {
		checkJpegScans(bytes);
	}
}

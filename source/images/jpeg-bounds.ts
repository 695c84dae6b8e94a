import {ImageError} from './image-error.js';

/**
The most scans podtop lets jpeg-js decode in one JPEG. Each scan walks every block of its components
(a 4096 × 4096 picture has 786,432 in three components), however few bytes it takes: a progressive
file of thousands of tiny scans is a CPU bomb. Encoders write 1 (baseline) to about 10 (progressive).
*/
export const jpegScanLimit = 64;

/**
How many scans a JPEG can hold at most: its SOS markers (0xFF 0xDA), counted wherever they are. In
the entropy-coded data a 0xFF is always followed by 0x00 or a marker, so no scan is missed; a marker
inside a segment's payload (an EXIF thumbnail's) is counted too, which only errs on the safe side.
*/
export function jpegScans(bytes: Uint8Array): number {
	let scans = 0;
	for (let at = bytes.indexOf(0xff); at !== -1 && at + 1 < bytes.length; at = bytes.indexOf(0xff, at + 1)) {
		if (bytes[at + 1] === 0xda) {
			scans++;
		}
	}

	return scans;
}

/** Refuses a JPEG of more than `jpegScanLimit` scans, before jpeg-js decodes any. */
export function checkJpegScans(bytes: Uint8Array): void {
	const scans = jpegScans(bytes);
	if (scans > jpegScanLimit) {
		throw new ImageError('too-large', `picture refused: the JPEG has ${scans.toLocaleString('en-US')} scans, over the ${jpegScanLimit} podtop decodes`);
	}
}

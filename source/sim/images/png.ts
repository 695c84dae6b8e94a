import {crc32, deflateSync} from 'node:zlib';
import type {Rgb} from './picture.js';

function chunk(type: string, data: Buffer): Buffer {
	const head = Buffer.alloc(8);
	head.writeUInt32BE(data.length, 0);
	head.write(type, 4, 'ascii');
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
	return Buffer.concat([head, data, crc]);
}

/** A truecolour PNG of `width` × `height` pixels. */
export function encodePng(width: number, height: number, pixel: (x: number, y: number) => Rgb): Buffer {
	const header = Buffer.alloc(13);
	header.writeUInt32BE(width, 0);
	header.writeUInt32BE(height, 4);
	// 8 bits per channel, colour type 2 (RGB), deflate, no filter method quirks, no interlace.
	header.set([8, 2, 0, 0, 0], 8);
	const rowBytes = 1 + width * 3;
	const raw = Buffer.alloc(rowBytes * height);
	for (let y = 0; y < height; y++) {
		// Each row starts with its filter type, 0 (none).
		for (let x = 0; x < width; x++) {
			const [r, g, b] = pixel(x, y);
			const at = y * rowBytes + 1 + x * 3;
			raw[at] = r;
			raw[at + 1] = g;
			raw[at + 2] = b;
		}
	}

	return Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		chunk('IHDR', header),
		chunk('IDAT', deflateSync(raw)),
		chunk('IEND', Buffer.alloc(0)),
	]);
}

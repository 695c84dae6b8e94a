import {constants, crc32, deflateRawSync} from 'node:zlib';

const mb = 1024 * 1024;

/** A PNG chunk: length, type, data and CRC. */
export function chunk(type: string, data: Buffer): Buffer {
	const head = Buffer.alloc(8);
	head.writeUInt32BE(data.length, 0);
	head.write(type, 4, 'latin1');
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
	return Buffer.concat([head, data, crc]);
}

/**
A zlib stream of `size` zero bytes (a multiple of a megabyte) without deflating them all: one
megabyte deflated and fully flushed (about a kilobyte, that needs nothing before it), repeated, then
a final empty block and the Adler-32 of that many zeros (a = 1, b = size mod 65521).
*/
export function zeros(size: number): Buffer {
	const piece = deflateRawSync(Buffer.alloc(mb), {level: 9, finishFlush: constants.Z_FULL_FLUSH});
	const adler = Buffer.alloc(4);
	adler.writeUInt32BE((((size % 65_521) << 16) | 1) >>> 0, 0);
	return Buffer.concat([Buffer.from([0x78, 0xda]), ...Array.from({length: size / mb}, () => piece), deflateRawSync(Buffer.alloc(0)), adler]);
}

/** A PNG whose header says `width` × `height` (RGBA at 8 bits), with `idat` as its data. */
export function png(width: number, height: number, interlaced: boolean, idat: Buffer): Buffer {
	const header = Buffer.alloc(13);
	header.writeUInt32BE(width, 0);
	header.writeUInt32BE(height, 4);
	header.set([8, 6, 0, 0, interlaced ? 1 : 0], 8);
	return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', header), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

import {describe, expect, test} from 'vitest';
import {invalidUtf8Offset} from '../../source/lib/utf8.js';

describe('invalidUtf8Offset', () => {
	test('-1 for UTF-8, one to four bytes a character', () => {
		expect(invalidUtf8Offset(Buffer.from('{"prompt": "é € 😀 fox"}'))).toBe(-1);
		expect(invalidUtf8Offset(new Uint8Array())).toBe(-1);
	});

	test('where the first broken sequence starts: a stray byte, a cut one, an overlong form, a surrogate, past U+10FFFF', () => {
		const at = (...bytes: number[]) => invalidUtf8Offset(Uint8Array.from([0x61, 0x62, ...bytes, 0x63]));
		expect(at(0xff)).toBe(2);
		expect(at(0x80)).toBe(2);
		expect(at(0xc3)).toBe(2);
		expect(invalidUtf8Offset(Uint8Array.from([0x61, 0xe2, 0x82]))).toBe(1);
		expect(at(0xc0, 0xaf)).toBe(2);
		expect(at(0xe0, 0x80, 0xaf)).toBe(2);
		expect(at(0xed, 0xa0, 0x80)).toBe(2);
		expect(at(0xf4, 0x90, 0x80, 0x80)).toBe(2);
		expect(at(0xc3, 0xa9, 0xe9)).toBe(4);
	});
});

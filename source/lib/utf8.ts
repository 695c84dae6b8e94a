import {isUtf8} from 'node:buffer';

/** The byte a sequence's second byte may be, at least and at most, by its first (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF). */
function secondByteRange(lead: number): readonly [number, number] {
	switch (lead) {
		case 0xe0: {
			return [0xa0, 0xbf];
		}

		case 0xed: {
			return [0x80, 0x9f];
		}

		case 0xf0: {
			return [0x90, 0xbf];
		}

		case 0xf4: {
			return [0x80, 0x8f];
		}

		default: {
			return [0x80, 0xbf];
		}
	}
}

/** How many bytes a sequence starting with `lead` holds, or 0 when no sequence starts with it. */
function sequenceLength(lead: number): number {
	if (lead < 0x80) {
		return 1;
	}

	if (lead >= 0xc2 && lead <= 0xdf) {
		return 2;
	}

	if (lead >= 0xe0 && lead <= 0xef) {
		return 3;
	}

	return lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
}

/** The offset of the first byte that is not valid UTF-8 (where the broken sequence starts), or -1 when all of `bytes` is. */
export function invalidUtf8Offset(bytes: Uint8Array): number {
	if (isUtf8(bytes)) {
		return -1;
	}

	let index = 0;
	while (index < bytes.length) {
		const lead = bytes[index]!;
		const length = sequenceLength(lead);
		if (length === 0 || index + length > bytes.length) {
			return index;
		}

		const [low, high] = secondByteRange(lead);
		for (let next = 1; next < length; next++) {
			const byte = bytes[index + next]!;
			if (next === 1 ? byte < low || byte > high : byte < 0x80 || byte > 0xbf) {
				return index;
			}
		}

		index += length;
	}

	return -1;
}

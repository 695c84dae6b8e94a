/** The service caps one stream chunk at 1 MB; larger output is split across chunks. */
export const maxChunkBytes = 1024 * 1024;

/**
Splits a yielded output that is over the chunk cap. A string is cut into pieces of at most
`maxBytes` UTF-8 bytes (never inside a character); any other value is serialised to JSON first,
so a client rebuilds it by joining the pieces.
*/
export function splitOutput(output: unknown, maxBytes = maxChunkBytes): unknown[] {
	const text = typeof output === 'string' ? output : JSON.stringify(output);
	if (text === undefined || Buffer.byteLength(text) <= maxBytes) {
		return [output];
	}

	const pieces: string[] = [];
	let piece = '';
	let pieceBytes = 0;
	for (const character of text) {
		const bytes = Buffer.byteLength(character);
		if (pieceBytes + bytes > maxBytes) {
			pieces.push(piece);
			piece = '';
			pieceBytes = 0;
		}

		piece += character;
		pieceBytes += bytes;
	}

	if (piece) {
		pieces.push(piece);
	}

	return pieces;
}

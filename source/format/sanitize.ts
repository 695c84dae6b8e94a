/** Any character sanitizeText changes: C0 controls (newline and tab too), DEL, C1, and the invisible or reordering ones below. */
const needsSanitizing = /[\u0000-\u001F\u007F-\u009F\u200B-\u200F\u2028-\u202E\u2060\u2066-\u2069\uFEFF]/;

/**
Makes untrusted text (job output) inert for a terminal: escape sequences and control characters
are shown as visible symbols (ESC as `␛`, other C0/C1 controls as `^X` or `\u009b`-style), never
passed through. Newlines stay; tabs become spaces; carriage returns are dropped.
*/
export function sanitizeText(text: string): string {
	// Most text (every pod's name, at every poll) has nothing to change: it is returned as it is, not rebuilt.
	if (!needsSanitizing.test(text)) {
		return text;
	}

	let result = '';
	for (const character of text) {
		const code = character.codePointAt(0)!;
		switch (character) {
			case '\n': {
				result += '\n';

				break;
			}

			case '\t': {
				result += '    ';

				break;
			}

			case '\r': {
				continue;
			}

			default: {
				if (code === 0x1b) {
					result += '␛';
				} else if (code < 0x20 || code === 0x7f) {
					result += `^${String.fromCodePoint(code === 0x7f ? 0x3f : code + 0x40)}`;
				} else if (code >= 0x80 && code <= 0x9f) {
					result += String.raw`\u${code.toString(16).padStart(4, '0')}`;
				} else if (
					code === 0x20_28 ||
					code === 0x20_29 ||
					(code >= 0x20_2a && code <= 0x20_2e) ||
					(code >= 0x20_66 && code <= 0x20_69) ||
					(code >= 0x20_0b && code <= 0x20_0f) ||
					code === 0x20_60 ||
					code === 0xfe_ff
				) {
					// Line separators, bidirectional overrides and zero-width characters: could reorder or hide what is shown.
					result += String.raw`\u${code.toString(16)}`;
				} else {
					result += character;
				}
			}
		}
	}

	return result;
}

/** One line of untrusted text: sanitised, newlines shown as `⏎`. */
export function sanitizeLine(text: string): string {
	// Text with nothing to change (every pod's name, for every row made) has no newline either: not searched again.
	return needsSanitizing.test(text) ? sanitizeText(text).replaceAll('\n', '⏎') : text;
}

/**
JSON for stdout that a terminal cannot act on, whoever reads it: the same data (it parses to equal
values), with every C1 control, line separator, bidirectional and zero-width character written as
a `\u` escape (JSON.stringify already escapes C0 controls).
*/
export function inertJson(value: unknown, indent?: number): string {
	return JSON.stringify(value, undefined, indent).replaceAll(
		/[\u007F-\u009F\u200B-\u200F\u2028-\u202E\u2060\u2066-\u2069\uFEFF]/g,
		character => String.raw`\u${character.codePointAt(0)!.toString(16).padStart(4, '0')}`,
	);
}

/** Stand-ins for the characters podtop itself draws (and a few common in service text), one column for one. */
const standIns: Readonly<Record<string, string>> = {
	'·': '.',
	'•': '*',
	'●': '*',
	'○': 'o',
	'…': '~',
	'–': '-',
	'—': '-',
	'→': '>',
	'←': '<',
	'↑': '^',
	'↓': 'v',
	'▲': '^',
	'▼': 'v',
	'×': 'x',
	'≤': '<',
	'≥': '>',
	'≈': '~',
	'⏎': '/',
	'⚠': '!',
	'✓': '+',
	'✗': 'x',
	'“': '"',
	'”': '"',
	'‘': "'",
	'’': "'",
	'░': '.',
	'\u00A0': ' ',
};

/** Combining marks and invisible format characters take no column. */
const zeroWidth = /^[\p{Mark}\p{Default_Ignorable_Code_Point}]$/u;
/** East Asian wide and full-width characters and emoji take two (as the terminal and Ink count them). */
const doubleWidth =
	/^[\u1100-\u115F\u2E80-\u303E\u3041-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{20000}-\u{3FFFD}\p{Extended_Pictographic}]$/u;

function standIn(character: string): string {
	const known = standIns[character];
	if (known !== undefined) {
		return known;
	}

	const code = character.codePointAt(0)!;
	if (code >= 0x25_00 && code <= 0x25_7f) {
		// Box drawing: the lines as - and |, the corners and joints as +.
		return /[─━═┄┅┈┉╌╍]/.test(character) ? '-' : /[│┃║┆┇┊┋╎╏]/.test(character) ? '|' : '+';
	}

	if (code >= 0x25_80 && code <= 0x25_9f) {
		return '#';
	}

	if (code >= 0x28_00 && code <= 0x28_ff) {
		// Braille dots: none is a space, any a dot.
		return code === 0x28_00 ? ' ' : '.';
	}

	return zeroWidth.test(character) ? '' : doubleWidth.test(character) ? '??' : '?';
}

/**
Text with every character outside printable ASCII (escape sequences and control characters are left
as they are) replaced by ASCII taking the same columns, so a frame laid out for the terminal keeps its
layout: the last step of `--ascii`, after the glyph set has drawn what it can in ASCII itself.
*/
export function toAscii(text: string): string {
	return /[^\u0000-\u007E]/.test(text) ? text.replaceAll(/[^\u0000-\u007E]/gu, character => standIn(character)) : text;
}

// Faster text paths for Ink's frames, each answering as the package it stands in for
// (test/bundle/text-paths.test.ts compares them); scripts/bundle.js wraps the packages with them.

/**
Text made only of characters one column wide that never join their neighbours into one grapheme:
printable ASCII, Latin-1 (less the soft hyphen), general punctuation, arrows, mathematical operators,
⏎, control pictures (␛), box drawing, block elements and geometric shapes (what podtop draws with),
less any that may be drawn as an emoji (©, ↩, ‼, ▶).
Each is one UTF-16 unit, one grapheme, and one column for every copy of string-width and for
ansi-tokenize (test/bundle/text-paths.test.ts checks every one).
*/
export const narrowText =
	/^[[\u0020-\u007E\u00A0-\u00AC\u00AE-\u00FF\u2010-\u2027\u2030-\u205E\u2190-\u21FF\u2200-\u22FF\u23CE\u2400-\u243F\u2500-\u25FF]--\p{Extended_Pictographic}]*$/v;

/**
string-width with a fast path for narrow text: its width is its length, with no grapheme
segmentation. Ink measures every line of every frame; a Pods row has block characters and dashes,
which string-width's own fast path (ASCII only) does not take. Other text goes to it.
*/
export function withNarrowFastPath(stringWidth) {
	return (input, options) => {
		if (typeof input === 'string' && options?.ambiguousIsNarrow !== false && narrowText.test(input)) {
			return input.length;
		}

		return stringWidth(input, options);
	};
}

/**
@alcalzone/ansi-tokenize as Ink's Output uses it, with the same answers for less work. Ink turns
every line of every frame into one object per character with its styles; the library copies the
styles array for each character, and compares each character's styles with the last one's through
three new Sets. Here characters between two style changes share one styles array, equal styles are
not compared again, and a line of narrow text with plain SGR codes is cut by hand instead of by
Intl.Segmenter. Anything else goes to the library.
*/
export function fastAnsiTokenize(original) {
	/** A plain SGR code (`ESC [ 2 m`); codes with parameters (`38;5;n`) are left to the library. */
	const simpleCode = /\u001B\[\d*m/g;
	const ansiTokens = new Map();

	function ansiToken(code) {
		let token = ansiTokens.get(code);
		if (token === undefined) {
			[token] = original.tokenize(code);
			ansiTokens.set(code, token);
		}

		return {type: 'ansi', code: token.code, endCode: token.endCode};
	}

	function tokenize(string, endChar = Number.POSITIVE_INFINITY) {
		if (endChar !== Number.POSITIVE_INFINITY) {
			return original.tokenize(string, endChar);
		}

		const tokens = [];
		const text = (from, to) => {
			for (let index = from; index < to; index++) {
				tokens.push({type: 'char', value: string[index], fullWidth: false});
			}
		};

		let from = 0;
		simpleCode.lastIndex = 0;
		for (let match = simpleCode.exec(string); match; match = simpleCode.exec(string)) {
			if (!narrowText.test(string.slice(from, match.index))) {
				return original.tokenize(string);
			}

			text(from, match.index);
			tokens.push(ansiToken(match[0]));
			from = match.index + match[0].length;
		}

		if (!narrowText.test(from === 0 ? string : string.slice(from))) {
			return original.tokenize(string);
		}

		text(from, string.length);
		return tokens;
	}

	function styledCharsFromTokens(tokens) {
		let codes = [];
		const chars = [];
		for (const token of tokens) {
			if (token.type === 'ansi') {
				// A new array each time: the ones handed out are never changed.
				codes = original.reduceAnsiCodesIncremental(codes, [token]);
			} else if (token.type === 'char') {
				chars.push({type: token.type, value: token.value, fullWidth: token.fullWidth, styles: codes});
			}
		}

		return chars;
	}

	/** Styles with the same codes: the library's diff between them is empty. */
	function sameStyles(left, right) {
		if (left === right) {
			return true;
		}

		return left.length === right.length && left.every((code, index) => code.code === right[index].code);
	}

	function styledCharsToString(chars) {
		let result = '';
		for (let index = 0; index < chars.length; index++) {
			const char = chars[index];
			if (index === 0) {
				if (char.styles.length > 0) {
					result += original.ansiCodesToString(char.styles);
				}
			} else if (!sameStyles(chars[index - 1].styles, char.styles)) {
				result += original.ansiCodesToString(original.diffAnsiCodes(chars[index - 1].styles, char.styles));
			}

			result += char.value;
			if (index === chars.length - 1 && char.styles.length > 0) {
				result += original.ansiCodesToString(original.diffAnsiCodes(char.styles, []));
			}
		}

		return result;
	}

	return {tokenize, styledCharsFromTokens, styledCharsToString};
}

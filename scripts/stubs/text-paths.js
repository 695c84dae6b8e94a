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

	/** The library's token of a plain SGR code, made once per code (shared: never changed). */
	function ansiToken(code) {
		let token = ansiTokens.get(code);
		if (token === undefined) {
			[token] = original.tokenize(code);
			ansiTokens.set(code, token);
		}

		return token;
	}

	/**
	Walks a line of narrow text with plain SGR codes: `onText(line, from, to)` for each run of characters
	between codes, `onCode(token)` for each code; false, and stopped, at the first run that is not narrow
	text or that `onText` refuses (returns false).
	*/
	function scanNarrow(line, onText, onCode) {
		let from = 0;
		simpleCode.lastIndex = 0;
		for (let match = simpleCode.exec(line); match; match = simpleCode.exec(line)) {
			if (!narrowText.test(line.slice(from, match.index)) || onText(line, from, match.index) === false) {
				return false;
			}

			onCode(ansiToken(match[0]));
			from = match.index + match[0].length;
		}

		return narrowText.test(from === 0 ? line : line.slice(from)) && onText(line, from, line.length) !== false;
	}

	function tokenize(string, endChar = Number.POSITIVE_INFINITY) {
		if (endChar !== Number.POSITIVE_INFINITY) {
			return original.tokenize(string, endChar);
		}

		const tokens = [];
		const narrow = scanNarrow(
			string,
			(line, from, to) => {
				for (let index = from; index < to; index++) {
					tokens.push({type: 'char', value: line[index], fullWidth: false});
				}
			},
			token => {
				tokens.push({type: 'ansi', code: token.code, endCode: token.endCode});
			},
		);
		return narrow ? tokens : original.tokenize(string);
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

	/** No styles: what every write starts with. */
	const unstyled = Object.freeze([]);
	/** One row's columns while it is drawn, kept from row to row: each column's character code and styles (unstyled between rows). */
	let characters = new Uint16Array(0);
	const stylesAt = [];
	/** The write being placed: the row's width, its next column and its styles so far. */
	let rowWidth = 0;
	let column = 0;
	let styles = unstyled;

	/** Puts a run of a write's characters at its next column; false when it does not fit between column 0 and the row's width. */
	const placeText = (line, from, to) => {
		if (column < 0 || column + to - from > rowWidth) {
			return false;
		}

		for (let index = from; index < to; index++) {
			characters[column] = line.codePointAt(index);
			stylesAt[column++] = styles;
		}

		return true;
	};

	const placeCode = token => {
		styles = original.reduceAnsiCodesIncremental(styles, [token]);
	};

	/** The row's string from its columns: runs of one style, the codes where they change (as styledCharsToString writes them), trailing spaces cut. */
	function rowText(width) {
		let result = '';
		let runFrom = 0;
		let last = unstyled;
		for (let at = 0; at < width; at++) {
			const next = stylesAt[at];
			if (!sameStyles(last, next)) {
				result += String.fromCodePoint.apply(undefined, characters.subarray(runFrom, at));
				result += original.ansiCodesToString(original.diffAnsiCodes(last, next));
				runFrom = at;
			}

			last = next;
		}

		result += String.fromCodePoint.apply(undefined, characters.subarray(runFrom, width));
		if (last.length > 0) {
			result += original.ansiCodesToString(original.diffAnsiCodes(last, []));
		}

		return result.trimEnd();
	}

	/**
	A row's string as Ink's Output makes it (empty cells, each write's characters in order, the styles'
	codes where they change, trailing spaces cut), with no object per character, when every write is
	narrow text with plain SGR codes inside the row; undefined otherwise (the row is drawn as Ink does).
	*/
	function drawNarrowRow(width, writes) {
		if (characters.length < width) {
			characters = new Uint16Array(width);
		}

		characters.fill(32, 0, width);
		while (stylesAt.length < width) {
			stylesAt.push(unstyled);
		}

		rowWidth = width;
		let placed = true;
		for (let index = 0; placed && index < writes.length; index += 2) {
			column = writes[index];
			styles = unstyled;
			placed = scanNarrow(writes[index + 1], placeText, placeCode);
		}

		const text = placed ? rowText(width) : undefined;
		// The styles let go, drawn or not (the row's string is all that is kept).
		stylesAt.fill(unstyled, 0, width);
		styles = unstyled;
		return text;
	}

	return {tokenize, styledCharsFromTokens, styledCharsToString, drawNarrowRow};
}

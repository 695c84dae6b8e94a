// A faster text path for Ink's frames, answering as the package it stands in for
// (test/bundle/text-paths.test.ts compares them); scripts/bundle.js wraps every copy of string-width with it.

/**
Text made only of characters one column wide that never join their neighbours into one grapheme:
printable ASCII, Latin-1 (less the soft hyphen), general punctuation, arrows, mathematical operators,
⏎, control pictures (␛), box drawing, block elements and geometric shapes (what podtop draws with),
less any that may be drawn as an emoji (©, ↩, ‼, ▶).
Each is one UTF-16 unit, one grapheme, and one column for every copy of string-width
(test/bundle/text-paths.test.ts checks every one).
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

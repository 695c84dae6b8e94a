/** The longest field line of an event stream kept, in characters (a `data:` line of the spec's JSON with a 16 kB line and its escapes fits). */
export const maxFieldChars = 64 * 1024;
/** The most characters of one event kept (every `data:` line of it together): an event of a thousand data lines is cut here. */
export const maxEventChars = 128 * 1024;

/**
Cuts an event stream's text, as it arrives, so that no line is longer than `maxFieldChars` and no event
longer than `maxEventChars`: what is past the bound is dropped as it streams by, never held, and
`onCut` is told once per event (a parser fed the result then buffers at most one bounded event).
Line ends are the three SSE knows (`\n`, `\r`, `\r\n`); a blank line ends an event.
*/
export class SseBounds {
	#lineChars = 0;
	#eventChars = 0;
	#cut = false;
	/** The last character passed was `\r`: a `\n` right after it ends the same line. */
	#afterCarriageReturn = false;
	readonly #onCut: () => void;

	constructor(onCut: () => void) {
		this.#onCut = onCut;
	}

	/** The part of `text` to pass on. */
	take(text: string): string {
		let kept = '';
		let start = 0;
		for (let index = 0; index < text.length; index++) {
			const code = text.codePointAt(index);
			if (code !== 10 && code !== 13) {
				continue;
			}

			kept += this.#within(text.slice(start, index));
			const crlf = code === 10 && this.#afterCarriageReturn && index === start;
			this.#afterCarriageReturn = code === 13;
			kept += text[index];
			start = index + 1;
			if (crlf) {
				continue;
			}

			if (this.#lineChars === 0) {
				// A blank line: the event ends.
				this.#eventChars = 0;
				this.#cut = false;
			}

			this.#lineChars = 0;
		}

		if (start < text.length) {
			this.#afterCarriageReturn = false;
		}

		return kept + this.#within(text.slice(start));
	}

	/** Forgets the line and event in progress (a new connection). */
	reset(): void {
		this.#lineChars = 0;
		this.#eventChars = 0;
		this.#cut = false;
		this.#afterCarriageReturn = false;
	}

	#within(segment: string): string {
		if (segment.length === 0) {
			return '';
		}

		const room = Math.max(0, Math.min(maxFieldChars - this.#lineChars, maxEventChars - this.#eventChars));
		// A line counts as not blank even when all of it is dropped.
		this.#lineChars += segment.length <= room ? segment.length : Math.max(1, room);
		this.#eventChars += Math.min(segment.length, room);
		if (segment.length <= room) {
			return segment;
		}

		if (!this.#cut) {
			this.#cut = true;
			this.#onCut();
		}

		return segment.slice(0, room);
	}
}

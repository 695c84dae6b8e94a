/** Cuts to `width` columns with an ellipsis, or pads to it. Text is assumed one column per character (sanitised). */
export function fit(text: string, width: number, align: 'left' | 'right' = 'left', ellipsis = '…'): string {
	if (width <= 0) {
		return '';
	}

	const characters = [...text];
	if (characters.length > width) {
		return width === 1 ? characters[0]! : `${characters.slice(0, width - ellipsis.length).join('')}${ellipsis}`;
	}

	const padding = ' '.repeat(width - characters.length);
	return align === 'right' ? `${padding}${text}` : `${text}${padding}`;
}

/** Any half of a surrogate pair: a line with one is wrapped by code points, the rest by UTF-16 units (about 3× faster). */
const surrogate = /[\uD800-\uDFFF]/;

/** Wraps one line (no newline in it) into `lines`: at the last space that fits, hard-breaking a word longer than `width`. */
function wrapLine(characters: string | readonly string[], width: number, lines: string[]): void {
	const piece = (from: number, to: number) => (typeof characters === 'string' ? characters.slice(from, to) : characters.slice(from, to).join(''));
	const {length} = characters;
	let start = 0;
	while (length - start > width) {
		let space = start + width;
		while (space > start && characters[space] !== ' ') {
			space--;
		}

		let end = space;
		while (end > start && characters[end - 1] === ' ') {
			end--;
		}

		if (end === start) {
			lines.push(piece(start, start + width));
			start += width;
			continue;
		}

		lines.push(piece(start, end));
		start = space;
		while (start < length && characters[start] === ' ') {
			start++;
		}
	}

	if (start < length || length === 0) {
		lines.push(piece(start, length));
	}
}

/**
Wraps text to `width` columns at word boundaries: a line breaks at its last space that fits (the
spaces there go), a word longer than a line is cut; leading spaces and empty lines are kept.
*/
export function wrapLines(text: string, width: number): string[] {
	const room = Math.max(1, width);
	const lines: string[] = [];
	for (const line of text.split('\n')) {
		wrapLine(surrogate.test(line) ? [...line] : line, room, lines);
	}

	return lines;
}

/** Cuts the middle out of text over `width`: `llama-3-8b-instruct` → `llama-3…truct`, both ends stay recognisable. */
export function fitMiddle(text: string, width: number, ellipsis = '…'): string {
	const characters = [...text];
	if (characters.length <= width) {
		return text;
	}

	const room = Math.max(0, width - ellipsis.length);
	const head = Math.ceil(room / 2);
	return `${characters.slice(0, head).join('')}${ellipsis}${characters.slice(characters.length - (room - head)).join('')}`;
}

/** Wraps text to `width` columns at spaces, hard-breaking a word longer than a line. */
export function wrapWords(text: string, width: number): string[] {
	const room = Math.max(1, width);
	const lines: string[] = [];
	let line = '';
	for (const word of text.split(' ').filter(Boolean)) {
		const candidate = line === '' ? word : `${line} ${word}`;
		if ([...candidate].length <= room) {
			line = candidate;
			continue;
		}

		if (line !== '') {
			lines.push(line);
		}

		let characters = [...word];
		while (characters.length > room) {
			lines.push(characters.slice(0, room).join(''));
			characters = characters.slice(room);
		}

		line = characters.join('');
	}

	return [...lines, line];
}

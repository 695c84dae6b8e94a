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

/** Wraps text to `width` columns, hard-breaking long words; keeps empty lines. */
export function wrapLines(text: string, width: number): string[] {
	const lines: string[] = [];
	for (const line of text.split('\n')) {
		const characters = [...line];
		if (characters.length === 0) {
			lines.push('');
			continue;
		}

		for (let start = 0; start < characters.length; start += width) {
			lines.push(characters.slice(start, start + width).join(''));
		}
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

// Ink's Output (ink/build/output.js, Ink 6.8) drawing the same frames for less work; scripts/bundle.js
// loads it in place of Ink's, and test/bundle/ink-output.test.ts draws random frames with both.
//
// Ink builds every frame from nothing: an object per cell of the screen (120×40: 4,800, each with its
// own styles array), every line of text cut into styled characters again, each character's width
// looked up again, and every row turned back into a string. Here the styled characters of a line and
// their widths are kept for the next frame, empty cells share one object, and a row whose writes
// are those of the last frame (the same lines at the same columns) keeps the last frame's string.

/**
What a frame looked up (by text), kept for the next frame and no longer (a
frame's lines may each hold a few kilobytes of styled characters).
*/
function frameCache() {
	let current = new Map();
	let previous = new Map();
	return {
		get(key) {
			let value = current.get(key);
			if (value === undefined) {
				value = previous.get(key);
				if (value !== undefined) {
					current.set(key, value);
				}
			}

			return value;
		},
		set(key, value) {
			current.set(key, value);
			return value;
		},
		/** A frame is drawn: what it did not use goes. */
		turn() {
			previous = current;
			current = new Map();
		},
		size: () => current.size + previous.size,
	};
}

/** Ink's Output class over the same packages (slice-ansi, string-width, ansi-tokenize). */
export function createOutputClass({sliceAnsi, stringWidth, tokenize, styledCharsFromTokens, styledCharsToString}) {
	const widths = frameCache();
	const blockWidths = frameCache();
	/** A line's styled characters and the columns each takes (Ink's `Math.max(1, width)`). */
	const styledLines = frameCache();
	/** Ink's empty cell; shared, as no cell is ever changed once made (only replaced). */
	const blank = Object.freeze({type: 'char', value: ' ', fullWidth: false, styles: Object.freeze([])});
	/** The last frame drawn, by row: its writes (column, styled line, …) and its string. */
	let lastRows = [];
	let lastWidth = -1;

	const stringWidthOf = text => widths.get(text) ?? widths.set(text, stringWidth(text));
	const widestLine = text => {
		let width = blockWidths.get(text);
		if (width === undefined) {
			width = 0;
			for (const line of text.split('\n')) {
				width = Math.max(width, stringWidthOf(line));
			}

			blockWidths.set(text, width);
		}

		return width;
	};

	const styledLine = line => {
		let styled = styledLines.get(line);
		if (styled === undefined) {
			const chars = styledCharsFromTokens(tokenize(line));
			styled = styledLines.set(line, {chars, columns: chars.map(character => Math.max(1, stringWidthOf(character.value)))});
		}

		return styled;
	};

	const sameWrites = (left, right) => {
		if (left === undefined || left.length !== right.length) {
			return false;
		}

		// eslint-disable-next-line unicorn/no-for-loop -- by index: no entry made for each write of each row of each frame
		for (let index = 0; index < right.length; index++) {
			if (left[index] !== right[index]) {
				return false;
			}
		}

		return true;
	};

	/** A row's string as Ink makes it: empty cells, each write's characters in order, wide ones clearing the cells they cover. */
	const drawRow = (width, writes) => {
		const cells = [];
		for (let x = 0; x < width; x++) {
			cells.push(blank);
		}

		for (let index = 0; index < writes.length; index += 2) {
			const {chars, columns} = writes[index + 1];
			let offsetX = writes[index];
			// eslint-disable-next-line unicorn/no-for-loop -- the index also reads the character's columns
			for (let at = 0; at < chars.length; at++) {
				const character = chars[at];
				cells[offsetX] = character;
				const characterWidth = columns[at];
				for (let cover = 1; cover < characterWidth; cover++) {
					cells[offsetX + cover] = {type: 'char', value: '', fullWidth: false, styles: character.styles};
				}

				offsetX += characterWidth;
			}
		}

		// See https://github.com/vadimdemedes/ink/pull/564#issuecomment-1637022742
		return styledCharsToString(cells.filter(item => item !== undefined)).trimEnd();
	};

	return class Output {
		/** How many lines and widths are kept (for tests). */
		static cached = () => ({lines: styledLines.size(), widths: widths.size()});
		width;
		height;
		operations = [];

		constructor({width, height}) {
			this.width = width;
			this.height = height;
		}

		write(x, y, text, {transformers}) {
			if (!text) {
				return;
			}

			this.operations.push({type: 'write', x, y, text, transformers});
		}

		clip(clip) {
			this.operations.push({type: 'clip', clip});
		}

		unclip() {
			this.operations.push({type: 'unclip'});
		}

		get() {
			/** Each row's writes, in the order Ink applies them: column, styled line, column, … */
			const rows = [];
			for (let y = 0; y < this.height; y++) {
				rows.push([]);
			}

			const clips = [];
			for (const operation of this.operations) {
				if (operation.type === 'clip') {
					clips.push(operation.clip);
				}

				if (operation.type === 'unclip') {
					clips.pop();
				}

				if (operation.type !== 'write') {
					continue;
				}

				const {text, transformers} = operation;
				let {x, y} = operation;
				let lines = text.split('\n');
				const clip = clips.at(-1);
				if (clip) {
					const clipHorizontally = typeof clip?.x1 === 'number' && typeof clip?.x2 === 'number';
					const clipVertically = typeof clip?.y1 === 'number' && typeof clip?.y2 === 'number';
					if (clipHorizontally) {
						const width = widestLine(text);
						if (x + width < clip.x1 || x > clip.x2) {
							continue;
						}
					}

					if (clipVertically) {
						const height = lines.length;
						if (y + height < clip.y1 || y > clip.y2) {
							continue;
						}
					}

					if (clipHorizontally) {
						lines = lines.map(line => {
							const from = x < clip.x1 ? clip.x1 - x : 0;
							const width = stringWidthOf(line);
							const to = x + width > clip.x2 ? clip.x2 - x : width;
							return sliceAnsi(line, from, to);
						});
						if (x < clip.x1) {
							x = clip.x1;
						}
					}

					if (clipVertically) {
						const from = y < clip.y1 ? clip.y1 - y : 0;
						const height = lines.length;
						const to = y + height > clip.y2 ? clip.y2 - y : height;
						lines = lines.slice(from, to);
						if (y < clip.y1) {
							y = clip.y1;
						}
					}
				}

				let offsetY = 0;
				for (let [index, line] of lines.entries()) {
					// As in Ink: a line off the screen is skipped without moving down, and so are the ones after it.
					const row = rows[y + offsetY];
					if (!row) {
						continue;
					}

					for (const transformer of transformers) {
						line = transformer(line, index);
					}

					row.push(x, styledLine(line));
					offsetY++;
				}
			}

			const sameWidth = this.width === lastWidth;
			const drawn = rows.map((writes, y) => {
				const last = sameWidth ? lastRows[y] : undefined;
				return last !== undefined && sameWrites(last.writes, writes) ? last : {writes, text: drawRow(this.width, writes)};
			});
			lastRows = drawn;
			lastWidth = this.width;
			widths.turn();
			blockWidths.turn();
			styledLines.turn();
			return {output: drawn.map(row => row.text).join('\n'), height: rows.length};
		}
	};
}

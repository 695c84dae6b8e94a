// Ink's Output (ink/build/output.js, Ink 6.8) drawing the same frames for less work; scripts/bundle.js
// loads it in place of Ink's, and test/bundle/ink-output.test.ts draws random frames with both.
//
// Ink builds every frame from nothing: an object per cell of the screen (120×40: 4,800, each with its
// own styles array), every line cut into styled characters and every row turned back into a string.
// Here empty cells share one object, and a row whose writes are the last frame's (the same lines at
// the same columns) keeps the last frame's string: only the rows that changed are cut and joined.
// Nothing of a frame is kept but its rows' strings and lines (styled characters kept from one frame to
// the next would be copied by the collector: a row's are about 6 KB).

/** Characters whose width is kept (a screen draws a few hundred different ones). */
export const characterWidthLimit = 4096;

/** Ink's Output class over the same packages (slice-ansi, string-width, ansi-tokenize), with the bundle's narrow rows (text-paths.js) when given. */
export function createOutputClass({sliceAnsi, stringWidth, tokenize, styledCharsFromTokens, styledCharsToString, drawNarrowRow}) {
	/** Ink's `Math.max(1, stringWidth(character))`, by character. */
	const columnsOf = new Map();
	const columns = character => {
		let width = columnsOf.get(character);
		if (width === undefined) {
			if (columnsOf.size >= characterWidthLimit) {
				columnsOf.clear();
			}

			width = Math.max(1, stringWidth(character));
			columnsOf.set(character, width);
		}

		return width;
	};

	const widestLine = text => {
		let width = 0;
		for (const line of text.split('\n')) {
			width = Math.max(width, stringWidth(line));
		}

		return width;
	};

	/** Ink's empty cell; shared, as no cell is ever changed once made (only replaced). */
	const blank = Object.freeze({type: 'char', value: ' ', fullWidth: false, styles: Object.freeze([])});
	/** The last frame drawn, by row: its writes (column, line, …) and its string. */
	let lastRows = [];
	let lastWidth = -1;

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
		// Rows of narrow text (nearly all of podtop's) are drawn without the objects below (text-paths.js), when given.
		const narrow = drawNarrowRow?.(width, writes);
		if (narrow !== undefined) {
			return narrow;
		}

		const cells = [];
		for (let x = 0; x < width; x++) {
			cells.push(blank);
		}

		for (let index = 0; index < writes.length; index += 2) {
			let offsetX = writes[index];
			for (const character of styledCharsFromTokens(tokenize(writes[index + 1]))) {
				cells[offsetX] = character;
				const characterWidth = columns(character.value);
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
		/** How many characters' widths are kept (for tests). */
		static cached = () => columnsOf.size;
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
			/** Each row's writes, in the order Ink applies them: column, line, column, … */
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
							const width = stringWidth(line);
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

					row.push(x, line);
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
			return {output: drawn.map(row => row.text).join('\n'), height: rows.length};
		}
	};
}

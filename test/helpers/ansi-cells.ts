/** One character cell of a terminal line with its colours as SGR left them (`38;2;r;g;b`, `48;5;n`, or undefined). */
export type AnsiCell = {readonly char: string; readonly fg: string | undefined; readonly bg: string | undefined};

/**
Reads a line the way a terminal would: SGR sequences set or reset the foreground and background, each
other character is a cell with the colours in force. Enough of SGR for what podtop's pictures and Ink
emit (0, 39, 49, 38;2/38;5, 48;2/48;5, 30–37, 40–47, 90–97, 100–107; bold, dim and the like ignored).
*/
export function ansiCells(line: string): AnsiCell[] {
	const cells: AnsiCell[] = [];
	let fg: string | undefined;
	let bg: string | undefined;
	const pattern = /\u001B\[([\d;]*)m|([\s\S])/gu;
	for (const match of line.matchAll(pattern)) {
		if (match[2] !== undefined) {
			cells.push({char: match[2], fg, bg});
			continue;
		}

		const codes = (match[1] || '0').split(';').map(Number);
		for (let index = 0; index < codes.length; index++) {
			const code = codes[index]!;
			switch (code) {
				case 0: {
					fg = undefined;
					bg = undefined;

					break;
				}

				case 39: {
					fg = undefined;

					break;
				}

				case 49: {
					bg = undefined;

					break;
				}

				case 38:
				case 48: {
					const value = codes[index + 1] === 2 ? codes.slice(index, index + 5).join(';') : codes.slice(index, index + 3).join(';');
					index += codes[index + 1] === 2 ? 4 : 2;
					if (code === 38) {
						fg = value;
					} else {
						bg = value;
					}

					break;
				}

				default: {
					if ((code >= 30 && code <= 37) || (code >= 90 && code <= 97)) {
						fg = String(code);
					} else if ((code >= 40 && code <= 47) || (code >= 100 && code <= 107)) {
						bg = String(code);
					}
				}
			}
		}
	}

	return cells;
}

export const truecolor = (rgb: readonly number[]) => `38;2;${rgb.join(';')}`;
export const truecolorBg = (rgb: readonly number[]) => `48;2;${rgb.join(';')}`;

import type {Key} from 'ink';
import {unicodeGlyphs, type Glyphs} from '../format/glyphs.js';

/**
One name per key press, as operations list them: `j`, `G`, `?`, `enter`, `esc`, `tab`,
`shift-tab`, `up`, `down`, `pgup`, `pgdn`, `home`, `end`, `backspace`, `ctrl-c`, `ctrl-d`.
*/
export function keyName(input: string, key: Key): string | undefined {
	if (key.upArrow) {
		return 'up';
	}

	if (key.downArrow) {
		return 'down';
	}

	if (key.leftArrow) {
		return 'left';
	}

	if (key.rightArrow) {
		return 'right';
	}

	if (key.pageUp) {
		return 'pgup';
	}

	if (key.pageDown) {
		return 'pgdn';
	}

	if (key.home) {
		return 'home';
	}

	if (key.end) {
		return 'end';
	}

	if (key.return) {
		return 'enter';
	}

	if (key.escape) {
		return 'esc';
	}

	if (key.tab) {
		return key.shift ? 'shift-tab' : 'tab';
	}

	if (key.backspace || key.delete) {
		return 'backspace';
	}

	if (key.ctrl && input.length === 1) {
		return `ctrl-${input.toLowerCase()}`;
	}

	if (key.meta || input.length === 0) {
		return undefined;
	}

	return input;
}

const labels: Readonly<Record<string, string>> = {
	pgup: 'PgUp',
	pgdn: 'PgDn',
	home: 'Home',
	end: 'End',
	enter: 'Enter',
	esc: 'Esc',
	tab: 'Tab',
	'shift-tab': 'Shift-Tab',
	backspace: 'Backspace',
	' ': 'Space',
};

/** A key name as help shows it: `ctrl-c` → `Ctrl-C`, `pgup` → `PgUp`, `up` → `↑` (`Up` in ASCII). */
export function keyLabel(name: string, glyphs: Pick<Glyphs, 'arrowKeys'> = unicodeGlyphs): string {
	if (name.startsWith('ctrl-')) {
		return `Ctrl-${name.slice(5).toUpperCase()}`;
	}

	return name === 'up' || name === 'down' || name === 'left' || name === 'right' ? glyphs.arrowKeys[name] : (labels[name] ?? name);
}

/** Escape sequences a terminal sends for keys, as key names. */
const sequences: ReadonlyArray<readonly [string, string]> = [
	['\u001B[A', 'up'],
	['\u001B[B', 'down'],
	['\u001B[C', 'right'],
	['\u001B[D', 'left'],
	['\u001B[H', 'home'],
	['\u001B[F', 'end'],
	['\u001B[1~', 'home'],
	['\u001B[4~', 'end'],
	['\u001B[5~', 'pgup'],
	['\u001B[6~', 'pgdn'],
	['\u001B[Z', 'shift-tab'],
	['\u001BOA', 'up'],
	['\u001BOB', 'down'],
	['\u001BOC', 'right'],
	['\u001BOD', 'left'],
];

/** The key sequence that starts at `index`, if one does. */
function sequenceAt(text: string, index: number): (typeof sequences)[number] | undefined {
	return text[index] === '\u001B' ? sequences.find(([prefix]) => text.startsWith(prefix, index)) : undefined;
}

function controlName(code: number): string {
	switch (code) {
		case 0x0d:
		case 0x0a: {
			return 'enter';
		}

		case 0x09: {
			return 'tab';
		}

		case 0x08:
		case 0x7f: {
			return 'backspace';
		}

		case 0x1b: {
			return 'esc';
		}

		default: {
			return `ctrl-${String.fromCodePoint(code + 0x60)}`;
		}
	}
}

/**
Splits one read of the terminal (keys typed faster than a frame, or a paste) into key presses:
printable text, and the names of control keys and escape sequences (`ctrl-s`, `up`, `backspace`),
in order, each with the text it came from.
*/
export function splitKeys(text: string): Array<{readonly key?: string; readonly text: string}> {
	const pieces: Array<{readonly key?: string; readonly text: string}> = [];
	let index = 0;
	while (index < text.length) {
		const sequence = sequenceAt(text, index);
		if (sequence) {
			pieces.push({key: sequence[1], text: sequence[0]});
			index += sequence[0].length;
			continue;
		}

		const character = String.fromCodePoint(text.codePointAt(index)!);
		const code = character.codePointAt(0)!;
		pieces.push(code < 0x20 || code === 0x7f ? {key: controlName(code), text: character} : {text: character});
		index += character.length;
	}

	return pieces;
}

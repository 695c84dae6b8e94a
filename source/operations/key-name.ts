import type {Key} from 'ink';

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
	up: '↑',
	down: '↓',
	left: '←',
	right: '→',
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

/** A key name as help shows it: `ctrl-c` → `Ctrl-C`, `pgup` → `PgUp`. */
export function keyLabel(name: string): string {
	if (name.startsWith('ctrl-')) {
		return `Ctrl-${name.slice(5).toUpperCase()}`;
	}

	return labels[name] ?? name;
}

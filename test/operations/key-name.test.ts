import {describe, expect, test} from 'vitest';
import {splitKeys} from '../../source/operations/key-name.js';

describe('one read of the terminal, split into key presses', () => {
	test('text, control keys and escape sequences keep their order', () => {
		expect(splitKeys('60}\u0013y').map(piece => piece.key ?? piece.text)).toEqual(['6', '0', '}', 'ctrl-s', 'y']);
		expect(splitKeys('a\u007F\u001B[A\u001B[F\r\t\u001B[Z\u001B').map(piece => piece.key ?? piece.text)).toEqual([
			'a',
			'backspace',
			'up',
			'end',
			'enter',
			'tab',
			'shift-tab',
			'esc',
		]);
		expect(splitKeys('🦊é').map(piece => piece.text)).toEqual(['🦊', 'é']);
	});
});

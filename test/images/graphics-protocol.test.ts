import {inflateSync} from 'node:zlib';
import {describe, expect, test} from 'vitest';
import {itermImage, kittyImage, terminalGraphics} from '../../source/images/graphics-protocol.js';

describe('which graphics a terminal says it has', () => {
	test.each([
		[{TERM: 'xterm-kitty'}, 3, 'kitty'],
		[{TERM: 'xterm-256color', KITTY_WINDOW_ID: '3'}, 3, 'kitty'],
		[{TERM: 'xterm-ghostty'}, 3, 'kitty'],
		[{TERM: 'xterm-256color', TERM_PROGRAM: 'iTerm.app'}, 3, 'iterm'],
		// Over SSH iTerm2 is known by LC_TERMINAL, which SSH passes on.
		[{TERM: 'xterm-256color', LC_TERMINAL: 'iTerm2'}, 2, 'iterm'],
		// tmux and screen pass neither protocol on (without passthrough, which is not guessed).
		[{TERM: 'tmux-256color', TMUX: '/tmp/tmux-0/default,1,0', KITTY_WINDOW_ID: '3'}, 2, 'blocks'],
		[{TERM: 'screen-256color', LC_TERMINAL: 'iTerm2'}, 2, 'blocks'],
		[{TERM: 'xterm-kitty', STY: '1234.pts-0'}, 3, 'blocks'],
		[{TERM: 'xterm-256color'}, 2, 'blocks'],
		[{TERM: 'linux'}, 1, 'blocks'],
		[{TERM: 'xterm-kitty'}, 0, 'plain'],
		[{TERM: 'dumb'}, 0, 'plain'],
	] as const)('%o at colour level %i: %s', (env, level, expected) => {
		expect(terminalGraphics(env, level, false)).toBe(expected);
	});

	test('--ascii is the plain line whatever the terminal', () => {
		expect(terminalGraphics({TERM: 'xterm-kitty'}, 3, true)).toBe('plain');
	});
});

describe('the escape sequences', () => {
	test("kitty: a PNG in 4096-character pieces, the first with the placement, q=2 on every one so the terminal's answers stay out of the shell", () => {
		const png = Buffer.alloc(7000, 7);
		const sequences = [...kittyImage({png}, 40, 20).matchAll(/\u001B_G([^;]*);([^\u001B]*)\u001B\\/g)];
		expect(sequences.map(match => match[1])).toEqual(['a=T,q=2,f=100,c=40,r=20,m=1', 'q=2,m=1', 'q=2,m=0']);
		expect(sequences.slice(0, 2).every(match => match[2]!.length === 4096)).toBe(true);
		expect(Buffer.from(sequences.map(match => match[2]).join(''), 'base64').equals(png)).toBe(true);
	});

	test('kitty: other formats as their decoded pixels, RGB and deflated', () => {
		const data = Uint8Array.from({length: 3 * 4 * 2}, (_, index) => index * 10);
		const [match] = kittyImage({pixels: {width: 4, height: 2, data}}, 2, 1).matchAll(/\u001B_G([^;]*);([^\u001B]*)\u001B\\/g);
		expect(match![1]).toBe('a=T,q=2,f=24,s=4,v=2,o=z,c=2,r=1,m=0');
		expect([...inflateSync(Buffer.from(match![2]!, 'base64'))]).toEqual([...data]);
	});

	test('iTerm2: the file as it is, its size, the cells it fits in', () => {
		const jpeg = Buffer.from([0xff, 0xd8, 1, 2, 3, 0xff, 0xd9]);
		expect(itermImage(jpeg, 30, 15)).toBe(`\u001B]1337;File=inline=1;size=7;width=30;height=15;preserveAspectRatio=1:${jpeg.toString('base64')}\u0007`);
	});
});

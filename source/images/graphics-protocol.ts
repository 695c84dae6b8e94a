import {deflateSync} from 'node:zlib';
import type {Pixels} from './pixels.js';

/**
How a terminal can show a picture: the kitty graphics protocol, iTerm2's inline images, colour
half-blocks (any UTF-8 terminal with colour, through tmux and SSH), or the plain line alone.
*/
export type Graphics = 'kitty' | 'iterm' | 'blocks' | 'plain';

/**
The best way this terminal says it has, from its environment only: a query would need an answer, and
through tmux or SSH one may never come (a wait, and the answer typed into the shell later). kitty
(and Ghostty, which speaks its protocol) by `TERM` or `KITTY_WINDOW_ID`; iTerm2 by `TERM_PROGRAM` or
`LC_TERMINAL` (which SSH passes on). Inside tmux or screen the outer terminal's variables leak in
but its protocols do not pass (unless tmux is set up for it, which podtop does not guess): half-blocks.
*/
export function terminalGraphics(env: NodeJS.ProcessEnv, colorLevel: number, ascii: boolean): Graphics {
	if (ascii || colorLevel === 0) {
		return 'plain';
	}

	const term = env.TERM ?? '';
	if (env.TMUX || env.STY || /^(?:screen|tmux)/.test(term)) {
		return 'blocks';
	}

	if (term === 'xterm-kitty' || term === 'xterm-ghostty' || env.KITTY_WINDOW_ID) {
		return 'kitty';
	}

	if (env.TERM_PROGRAM === 'iTerm.app' || env.LC_TERMINAL === 'iTerm2') {
		return 'iterm';
	}

	return 'blocks';
}

/** kitty takes a payload in pieces of at most 4096 base64 characters. */
const kittyChunk = 4096;

/**
A picture in kitty's graphics protocol, scaled by the terminal to `columns` × `rows` cells: a PNG as
it is (f=100), anything else as the decoded pixels (f=24, RGB, deflated). `q=2` keeps the terminal's
answers (OK or an error) from being typed into the shell.
*/
export function kittyImage(image: {readonly png: Buffer} | {readonly pixels: Pixels}, columns: number, rows: number): string {
	const [control, payload] =
		'png' in image
			? [`f=100`, image.png]
			: [
					`f=24,s=${image.pixels.width},v=${image.pixels.height},o=z`,
					deflateSync(Buffer.from(image.pixels.data.buffer, image.pixels.data.byteOffset, image.pixels.data.byteLength)),
				];
	const base64 = payload.toString('base64');
	let out = '';
	for (let at = 0; at < base64.length; at += kittyChunk) {
		const more = at + kittyChunk < base64.length ? 1 : 0;
		const keys = at === 0 ? `a=T,q=2,${control},c=${columns},r=${rows},m=${more}` : `q=2,m=${more}`;
		out += `\u001B_G${keys};${base64.slice(at, at + kittyChunk)}\u001B\\`;
	}

	return out;
}

/** A PNG or JPEG as iTerm2's inline image, fitted into `columns` × `rows` cells with its aspect kept. */
export function itermImage(bytes: Buffer, columns: number, rows: number): string {
	return `\u001B]1337;File=inline=1;size=${bytes.length};width=${columns};height=${rows};preserveAspectRatio=1:${bytes.toString('base64')}\u0007`;
}

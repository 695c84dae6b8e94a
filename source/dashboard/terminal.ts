import {createFrameWriter, type FrameWriter} from './frame-writer.js';

const enterAlternateScreen = '\u001B[?1049h\u001B[H';
const leaveAlternateScreen = '\u001B[?1049l';
const showCursor = '\u001B[?25h';

export type TakenTerminal = Omit<FrameWriter, 'close'> & {
	/** Gives the terminal back (idempotent): the frame writer closed first, then the cursor shown and the main screen restored. */
	readonly restore: () => void;
};

/**
Switches to the alternate screen, with a frame writer for Ink on it, and guarantees the way back: on
normal exit, q, Ctrl-C, SIGTERM and SIGHUP the cursor is shown and the main screen (with its
scrollback) restored. The crash handler calls `restore` before it says what happened; nothing
drawn after it (Ink's last frame on exit) reaches the main screen.
*/
export function takeOverTerminal(target: NodeJS.WriteStream = process.stdout): TakenTerminal {
	const writer = createFrameWriter(target);
	let restored = false;
	const restore = () => {
		if (!restored) {
			restored = true;
			writer.close();
			target.write(`${showCursor}${leaveAlternateScreen}`);
		}
	};

	target.write(enterAlternateScreen);
	process.once('exit', restore);
	return {stdout: writer.stdout, invalidate: writer.invalidate, restore};
}

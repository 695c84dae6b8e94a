const enterAlternateScreen = '\u001B[?1049h\u001B[H';
const leaveAlternateScreen = '\u001B[?1049l';
const showCursor = '\u001B[?25h';

/**
Switches to the alternate screen and guarantees the way back: on normal exit, q, Ctrl-C, SIGTERM
and SIGHUP the cursor is shown and the main screen (with its scrollback) restored. Returns the
function that restores it (idempotent): the crash handler calls it before it says what happened.
*/
export function takeOverTerminal(stdout: NodeJS.WriteStream = process.stdout): () => void {
	let restored = false;
	const restore = () => {
		if (!restored) {
			restored = true;
			stdout.write(`${showCursor}${leaveAlternateScreen}`);
		}
	};

	stdout.write(enterAlternateScreen);
	process.once('exit', restore);
	return restore;
}

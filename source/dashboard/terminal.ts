const enterAlternateScreen = '\u001B[?1049h\u001B[H';
const leaveAlternateScreen = '\u001B[?1049l';
const showCursor = '\u001B[?25h';

/**
Switches to the alternate screen and guarantees the way back: on normal exit, q, Ctrl-C, SIGTERM,
SIGHUP and a crash, the cursor is shown and the main screen (with its scrollback) restored.
Returns the function that restores it (idempotent).
*/
export function takeOverTerminal(stdout: NodeJS.WriteStream = process.stdout): () => void {
	let restored = false;
	const restore = () => {
		if (!restored) {
			restored = true;
			stdout.write(`${showCursor}${leaveAlternateScreen}`);
		}
	};

	const onFatal = (error: unknown) => {
		// The terminal went away (ssh dropped, tmux killed): nothing to restore, nothing to say.
		const code = (error as {code?: string} | undefined)?.code;
		if (code === 'EIO' || code === 'EPIPE') {
			process.exit(0);
		}

		restore();
		process.stderr.write(`podtop crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
		process.exit(70);
	};

	stdout.write(enterAlternateScreen);
	process.once('exit', restore);
	process.once('uncaughtException', onFatal);
	process.once('unhandledRejection', onFatal);
	return restore;
}

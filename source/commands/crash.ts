import {redactSecrets} from '../api/redact.js';
import {sanitizeText} from '../format/sanitize.js';

const beforeCrash = new Set<() => void>();

/** Runs `fn` first when podtop crashes (the dashboard gives the terminal back before the message); returns the undo. */
export function onCrash(fn: () => void): () => void {
	beforeCrash.add(fn);
	return () => {
		beforeCrash.delete(fn);
	};
}

/**
The last word of a crash (an exception nobody caught): the terminal restored, then one message on
stderr with every key this process used taken out and nothing that can drive a terminal, and
exit 70. A terminal that went away (ssh dropped: EIO, EPIPE) ends it quietly.
*/
export function installCrashHandler(): void {
	const fatal = (error: unknown) => {
		const code = (error as {code?: string} | undefined)?.code;
		if (code === 'EIO' || code === 'EPIPE') {
			process.exit(0);
		}

		for (const fn of beforeCrash) {
			try {
				fn();
			} catch {}
		}

		const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
		process.stderr.write(`podtop crashed: ${sanitizeText(redactSecrets(text))}\n`);
		process.exit(70);
	};

	process.on('uncaughtException', fatal);
	process.on('unhandledRejection', fatal);
}

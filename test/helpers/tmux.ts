import {execFileSync} from 'node:child_process';
import {rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {cliPath, testStateHome} from './run-cli.js';

/** Whether tmux is installed: the real-terminal tests need it (`.ci/run` installs it). */
export const hasTmux = (() => {
	try {
		execFileSync('tmux', ['-V']);
		return true;
	} catch {
		return false;
	}
})();

/** The Endpoints pane's help box down to its bottom edge: the whole box drawn, not its first lines (a large frame reaches tmux in pieces). */
export const wholeEndpointsHelp = /Keys: Endpoints[\s\S]*╰─/;

/** How long after a match the screen is read again: a large frame reaches the terminal in pieces, and a match may be on half of one. */
const settleMs = 60;

/**
Reads a screen every 100 ms until it matches `pattern`; throws with the last one after `timeoutMs`.
A match is read again a moment later and that screen returned while it still matches: what the test
then asserts is the whole frame, not the part of it that had arrived (a clean CI run once read the
help box cut after its first lines).
*/
export async function waitForScreen(read: () => string, pattern: RegExp, timeoutMs: number): Promise<string> {
	const deadline = Date.now() + timeoutMs;
	let screen = '';
	while (Date.now() < deadline) {
		screen = read();
		if (pattern.test(screen)) {
			await new Promise(resolve => setTimeout(resolve, settleMs));
			const settled = read();
			return pattern.test(settled) ? settled : screen;
		}

		await new Promise(resolve => setTimeout(resolve, 100));
	}

	throw new Error(`screen never matched ${pattern}:\n${screen}`);
}

/** A private tmux server running podtop in a real terminal: send-keys in, capture-pane out. */
export class TmuxSession {
	/** The server's socket, by path: tmux's `kill-server` leaves the file behind (3.3a), so `close` removes it; a name under `-L` piled up in tmux's folder. */
	readonly #socket = path.join(tmpdir(), `podtop-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}.sock`);

	constructor(
		readonly columns: number,
		readonly rows: number,
		args: readonly string[] = [],
		/** More environment for podtop (say, RUNPOD_API_KEY for a test simulator); values must not need quoting. */
		env: Readonly<Record<string, string>> = {},
	) {
		const extra = Object.entries({XDG_STATE_HOME: testStateHome(), ...env})
			.map(([name, value]) => `${name}=${value}`)
			.join(' ');
		// The shell prints a marker before and after, so the test can see the terminal restored.
		const command = `echo BEFORE-PODTOP; env -u CI -u RUNPOD_API_KEY HOME=/nonexistent-podtop-home NODE_ENV=production LANG=C.UTF-8 ${extra} '${process.execPath}' '${cliPath}' ${args.join(' ')}; echo "PODTOP-EXIT $?"; sleep 600`;
		this.#tmux('new-session', '-d', '-s', 'main', '-x', String(columns), '-y', String(rows), 'sh', '-c', command);
	}

	screen(): string {
		return this.#tmux('capture-pane', '-p', '-t', 'main');
	}

	/** The screen with its colours, as SGR sequences (tmux's own, not necessarily the program's). */
	colourScreen(): string {
		return this.#tmux('capture-pane', '-p', '-e', '-t', 'main');
	}

	send(...keys: string[]): void {
		this.#tmux('send-keys', '-t', 'main', ...keys);
	}

	/** Types text literally (no key names). */
	type(text: string): void {
		this.#tmux('send-keys', '-t', 'main', '-l', text);
	}

	resize(columns: number, rows: number): void {
		this.#tmux('resize-window', '-t', 'main', '-x', String(columns), '-y', String(rows));
	}

	/** The pane's title, which an OSC 0/2 sequence that reached the terminal raw would change. */
	paneTitle(): string {
		return this.#tmux('display-message', '-p', '-t', 'main', '#{pane_title}').trim();
	}

	/** Lines that scrolled off the top: an app on the alternate screen adds none. */
	historySize(): number {
		return Number(this.#tmux('display-message', '-p', '-t', 'main', '#{history_size}').trim());
	}

	/** The pid of podtop itself (the shell's child). */
	podtopPid(): number | undefined {
		const shell = this.#tmux('display-message', '-p', '-t', 'main', '#{pane_pid}').trim();
		try {
			return Number(execFileSync('pgrep', ['-P', shell], {encoding: 'utf8'}).trim().split('\n')[0]);
		} catch {
			return undefined;
		}
	}

	/** Copies everything the program writes to the terminal, raw (bells and escapes too), into `file` from now on. */
	recordTo(file: string): void {
		this.#tmux('pipe-pane', '-t', 'main', '-o', `cat >> '${file}'`);
	}

	async waitFor(pattern: RegExp, timeoutMs = 15_000): Promise<string> {
		return waitForScreen(() => this.screen(), pattern, timeoutMs);
	}

	close(): void {
		try {
			this.#tmux('kill-server');
		} catch {}

		rmSync(this.#socket, {force: true});
	}

	#tmux(...args: string[]): string {
		return execFileSync('tmux', ['-S', this.#socket, '-f', '/dev/null', ...args], {encoding: 'utf8'});
	}
}

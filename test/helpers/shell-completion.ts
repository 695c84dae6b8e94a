import {execFile, execFileSync} from 'node:child_process';
import {mkdtempSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {promisify} from 'node:util';
import {cliEnv, cliPath} from './run-cli.js';
import {waitForScreen} from './tmux.js';

const run = promisify(execFile);

/** Whether a shell is installed: bash always is; the zsh and fish tests say they were not run where those are not. */
export function hasShell(name: string): boolean {
	try {
		execFileSync('sh', ['-c', `command -v ${name}`], {stdio: 'ignore'});
		return true;
	} catch {
		return false;
	}
}

/**
A folder with `podtop` on a PATH (a link to the built bundle, node beside it) and the three
completion scripts as `podtop completion` prints them, for shells to source; `remove` when done.
*/
export type CompletionFixture = {
	readonly folder: string;
	readonly env: NodeJS.ProcessEnv;
	readonly script: (shell: 'bash' | 'zsh' | 'fish') => string;
	readonly remove: () => void;
};

export async function completionFixture(extraEnv: Record<string, string | undefined> = {}): Promise<CompletionFixture> {
	const folder = mkdtempSync(join(tmpdir(), 'podtop-completion-'));
	symlinkSync(cliPath, join(folder, 'podtop'));
	const env = cliEnv({PATH: `${folder}:${dirname(process.execPath)}:/usr/bin:/bin`, LANG: 'C.UTF-8', ...extraEnv});
	for (const shell of ['bash', 'zsh', 'fish'] as const) {
		const {stdout} = await run(process.execPath, [cliPath, 'completion', shell], {env});
		writeFileSync(join(folder, `completion.${shell}`), stdout);
	}

	return {
		folder,
		env,
		script: shell => join(folder, `completion.${shell}`),
		remove() {
			rmSync(folder, {recursive: true, force: true});
		},
	};
}

/**
A Tab press in a real bash: the script sourced, COMP_WORDS set to the words (the last one the word
being completed, `''` for a new one), `_podtop` called; what it puts in COMPREPLY. `line`, when
given, is COMP_LINE too (bash splits its words at = and :, and the script puts them back).
*/
export async function bashTab(fixture: CompletionFixture, words: readonly string[], line?: readonly string[]): Promise<string[]> {
	const program = [
		'source "$1"; shift',
		line ? `COMP_LINE=$1; COMP_POINT=\${#COMP_LINE}; shift` : '',
		'COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()',
		'_podtop',
		`printf "%s\\n" "\${COMPREPLY[@]}"`,
	].join('\n');
	const args = [...(line ? [line.join('')] : []), ...words];
	const {stdout} = await run('bash', ['--norc', '--noprofile', '-c', program, 'bash', fixture.script('bash'), ...args], {env: fixture.env});
	return stdout.split('\n').filter(Boolean);
}

/** What fish would offer for the line (`complete -C`), the script sourced: one `value\tdescription` per candidate. */
export async function fishComplete(fixture: CompletionFixture, line: string): Promise<string[]> {
	const {stdout} = await run('fish', ['--no-config', '-c', 'source $argv[1]; complete -C $argv[2]', fixture.script('fish'), line], {env: fixture.env});
	return stdout.split('\n').filter(Boolean);
}

/** An interactive shell in a private tmux server (a real line editor): type a line, press Tab, read the screen. */
export class ShellSession {
	/** The server's socket, by path: tmux's `kill-server` leaves the file behind (3.3a), so `close` removes it; a name under `-L` piled up in tmux's folder. */
	readonly #socket = join(tmpdir(), `podtop-shell-${process.pid}-${Math.random().toString(36).slice(2, 8)}.sock`);

	/** `command` runs the shell; `env` is its whole environment. */
	constructor(command: readonly string[], env: NodeJS.ProcessEnv) {
		const variables = Object.entries(env).flatMap(([name, value]) => (value === undefined ? [] : ['-e', `${name}=${value}`]));
		this.#tmux('new-session', '-d', '-s', 'main', '-x', '200', '-y', '50', ...variables, ...command);
	}

	screen(): string {
		return this.#tmux('capture-pane', '-p', '-t', 'main');
	}

	/** Types text literally, then the keys named (`Tab`, `Enter`, `C-u`). */
	type(text: string, ...keys: string[]): void {
		this.#tmux('send-keys', '-t', 'main', '-l', text);
		if (keys.length > 0) {
			this.#tmux('send-keys', '-t', 'main', ...keys);
		}
	}

	/** Clears the screen and the line, so what follows is all that shows. */
	reset(): void {
		this.#tmux('send-keys', '-t', 'main', 'C-c');
		this.#tmux('send-keys', '-t', 'main', 'C-l');
	}

	async waitFor(pattern: RegExp, timeoutMs = 20_000): Promise<string> {
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

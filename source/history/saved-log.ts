import {constants} from 'node:fs';
import {open, type FileHandle} from 'node:fs/promises';
import {join} from 'node:path';
import {sanitizeLine} from '../format/sanitize.js';
import type {SessionLine} from '../model/log-session.js';
import {stateDirectory} from '../lib/state-directory.js';
import {makePrivateFolder} from './private-folder.js';

/** `$XDG_STATE_HOME/podtop/logs`, `~/.local/state/podtop/logs` by default: beside the history and the audit log. */
export function defaultLogDirectory(env: NodeJS.ProcessEnv = process.env): string {
	return join(stateDirectory(env), 'logs');
}

const pad = (value: number) => String(value).padStart(2, '0');

/** `20261123-031240`, in local time. */
function stamp(at: number): string {
	const date = new Date(at);
	return `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}-${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`;
}

/** A name from service data made safe for a file's name: letters, digits, `.`, `_` and `-` only, no leading dot, 64 at most. */
const fileWord = (text: string) =>
	text
		.replaceAll(/[^\w.-]/g, '_')
		.replace(/^\.+/, '_')
		.slice(0, 64) || 'log';

/** A saved line: its time (UTC), where it came from, its source, its text inert (escape sequences shown, never sent to whoever cats the file). */
const savedLine = (line: SessionLine) =>
	`${new Date(line.ts).toISOString()} ${sanitizeLine(line.origin)} ${line.source}${line.raw ? ' [raw]' : ''} ${sanitizeLine(line.line)}${line.truncated ? ' [cut]' : ''}\n`;

/** A new file of its own: created here (never one that was there, nor through a link planted in its name), private (0600). */
async function createNew(directory: string, base: string): Promise<{file: FileHandle; path: string}> {
	for (let attempt = 1; attempt <= 100; attempt++) {
		const path = join(directory, attempt === 1 ? `${base}.log` : `${base}-${attempt}.log`);
		try {
			// O_EXCL fails on any name taken, a symbolic link included; O_NOFOLLOW says so again; O_NONBLOCK: a FIFO does not hang the save.
			// One name after another, until one is free: each try waits on the last.
			// eslint-disable-next-line no-bitwise, no-await-in-loop
			const file = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o600);
			return {file, path};
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
				throw error;
			}
		}
	}

	throw new Error(`no free name for ${base}.log in ${directory}`);
}

/**
Saves a log view's buffered lines to a new private file in podtop's state folder (made 0700 when
podtop makes it; one that is a link, another user's, or open to others is refused). Resolves to
its path; rejects with a sentence.
*/
export async function saveLog(
	lines: readonly SessionLine[],
	name: string,
	{directory = defaultLogDirectory(), now = Date.now()}: {readonly directory?: string; readonly now?: number} = {},
): Promise<string> {
	const refused = makePrivateFolder(directory);
	if (refused) {
		throw new Error(`cannot keep logs in ${directory}: ${refused}`);
	}

	const {file, path} = await createNew(directory, `${fileWord(name)}-${stamp(now)}`);
	try {
		// A umask with odd bits (0o200) would leave it read-only; one that is lax cannot widen 0600, but it is set as meant either way.
		await file.chmod(0o600);
		await file.writeFile(lines.map(line => savedLine(line)).join(''));
	} finally {
		await file.close();
	}

	return path;
}

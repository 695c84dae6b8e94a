import {createHash} from 'node:crypto';
import {constants} from 'node:fs';
import {lstat, mkdir, open} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import {inertJson} from '../format/sanitize.js';
import type {AuditRecord} from '../history/audit-record.js';
import {stateDirectory} from '../lib/state-directory.js';

/** `$XDG_STATE_HOME/podtop/audit.jsonl`, `~/.local/state/podtop/audit.jsonl` by default. */
export function defaultAuditPath(env: NodeJS.ProcessEnv = process.env): string {
	return join(stateDirectory(env), 'audit.jsonl');
}

export function inputDigest(input: unknown): {inputBytes: number; inputSha256: string | undefined} {
	if (input === undefined) {
		return {inputBytes: 0, inputSha256: undefined};
	}

	const text = JSON.stringify(input);
	return {inputBytes: Buffer.byteLength(text), inputSha256: createHash('sha256').update(text).digest('hex')};
}

/** Why podtop will not append to `path`: a link, not a regular file, or another user's (undefined: its own, or not there yet). */
function refusal(path: string, stats: {isSymbolicLink: () => boolean; isFile: () => boolean; uid: number}, uid: number | undefined): string | undefined {
	if (stats.isSymbolicLink()) {
		return `${path} is a symbolic link: podtop appends only to a file of its own (give --audit-log a path that is not a link)`;
	}

	if (!stats.isFile()) {
		return `${path} is not a regular file: podtop appends only to a file of its own`;
	}

	if (uid !== undefined && stats.uid !== uid) {
		return `${path} belongs to another user (uid ${stats.uid}): podtop writes its audit log only into a file of its own (give --audit-log a path of yours)`;
	}

	return undefined;
}

const lstatIfThere = async (path: string) =>
	lstat(path).catch((error: unknown) => {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
			return undefined;
		}

		throw error;
	});

/**
Appends one JSON line per write, in a file only its owner can read. Rejects when it cannot: the caller shows why.
A file that is a link, not a regular file, or another user's is refused before a byte is written (the file is
opened without following a link, and checked again once open).
*/
export async function appendAudit(path: string, entry: AuditRecord, uid = process.getuid?.()): Promise<void> {
	await mkdir(dirname(path), {recursive: true, mode: 0o700});
	const before = await lstatIfThere(path);
	const refused = before && refusal(path, before, uid);
	if (refused) {
		throw new Error(refused);
	}

	// O_NONBLOCK: a FIFO put there meanwhile fails to open rather than hanging the write.
	// eslint-disable-next-line no-bitwise
	const file = await open(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o600);
	try {
		const opened = await file.stat();
		const refusedNow = refusal(path, {isSymbolicLink: () => false, isFile: () => opened.isFile(), uid: opened.uid}, uid);
		if (refusedNow) {
			throw new Error(refusedNow);
		}

		// A file of the user's own made by something else keeps its mode on append: make it private anyway.
		// eslint-disable-next-line no-bitwise
		if ((opened.mode & 0o077) !== 0) {
			await file.chmod(0o600);
		}

		await file.appendFile(`${inertJson(entry)}\n`);
	} finally {
		await file.close();
	}
}

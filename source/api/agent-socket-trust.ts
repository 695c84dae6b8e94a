import {lstatSync, type Stats} from 'node:fs';
import {tmpdir} from 'node:os';
import {basename, dirname} from 'node:path';

/** Who must own an agent's folder and socket: this user, or (a `--group` folder) a user of the group it is named for. */
type Owner = {readonly uid: number} | {readonly gid: number};

/** Whether a client may connect to a socket: trusted, nothing there (no warning), or why not (a sentence). */
export type SocketTrust = {readonly trusted: true} | {readonly trusted: false; readonly why?: string};

const ownUid = () => process.getuid?.() ?? -1;

/** A `podtop-group-<gid>` folder in the temporary directory is a group's (`groupAgentDirectory`); any other place is this user's own. */
function ownerOf(socketPath: string): Owner {
	const folder = dirname(socketPath);
	const group = /^podtop-group-(\d+)$/.exec(basename(folder));
	return group && dirname(folder) === tmpdir() ? {gid: Number(group[1])} : {uid: ownUid()};
}

const absent = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR';

/** `lstat`, never `stat`: a link is reported as a link, never followed. Undefined: nothing there. */
function look(path: string): Stats | undefined {
	try {
		return lstatSync(path);
	} catch (error) {
		if (absent(error)) {
			return undefined;
		}

		throw error;
	}
}

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`; // eslint-disable-line no-bitwise

function distrust(socketPath: string): string | undefined | 'absent' {
	const folderPath = dirname(socketPath);
	const owner = ownerOf(socketPath);
	const folder = look(folderPath);
	if (!folder) {
		return 'absent';
	}

	if (folder.isSymbolicLink() || !folder.isDirectory()) {
		return `${folderPath} is ${folder.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}`;
	}

	if ('uid' in owner ? folder.uid !== owner.uid : folder.gid !== owner.gid) {
		return 'uid' in owner ? `${folderPath} belongs to user ${folder.uid}, not to you` : `${folderPath} is of group ${folder.gid}, not ${owner.gid}`;
	}

	// eslint-disable-next-line no-bitwise
	if ((folder.mode & 0o022) !== 0) {
		return `${folderPath} may be written by others (mode ${octal(folder.mode)})`;
	}

	const socket = look(socketPath);
	if (!socket) {
		return 'absent';
	}

	if (!socket.isSocket()) {
		return `${socketPath} is ${socket.isSymbolicLink() ? 'a symbolic link' : 'not a socket'}`;
	}

	// A group's socket is made by the user who made its folder: the agent.
	const expectedUid = 'uid' in owner ? owner.uid : folder.uid;
	if (socket.uid !== expectedUid || ('gid' in owner && socket.gid !== owner.gid)) {
		return `${socketPath} belongs to user ${socket.uid} (group ${socket.gid}), not to the user who serves there`;
	}

	return undefined;
}

/**
Whether a client may talk to the socket at `socketPath`: its folder and the socket, looked at with
`lstat` (no link followed), belong to the expected user (this one, or for a `--group` folder the
group it is named for, which only its members can give a file), and nobody else may write in the
folder. Node offers no SO_PEERCRED (the credentials of the process behind a socket), so these
owner checks are the check of who listens; the handshake then proves the key, so a socket that
passed them and was swapped since still serves nothing to a process without the key.
*/
export function socketTrust(socketPath: string): SocketTrust {
	let why: string | undefined;
	try {
		why = distrust(socketPath);
	} catch (error) {
		why = `${socketPath} cannot be checked (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
	}

	return why === undefined ? {trusted: true} : why === 'absent' ? {trusted: false} : {trusted: false, why: `${why}: podtop trusts no agent there`};
}

/** The first of the places that holds a trusted socket, or undefined; `onDistrust` hears why each socket that is there is not trusted. */
export function findAgentSocket(paths: readonly string[], onDistrust?: (why: string) => void): string | undefined {
	for (const path of paths) {
		const trust = socketTrust(path);
		if (trust.trusted) {
			return path;
		}

		if (trust.why !== undefined) {
			onDistrust?.(trust.why);
		}
	}

	return undefined;
}

/** The agent behind a socket runs as this user (it can read the same files), or as another (a `--group` agent of a teammate). */
export function agentIsSameUser(socketPath: string): boolean {
	try {
		return lstatSync(socketPath).uid === ownUid();
	} catch {
		return false;
	}
}

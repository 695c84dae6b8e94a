import {chmodSync, chownSync, closeSync, constants, fchmodSync, fchownSync, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, unlinkSync} from 'node:fs';
import {createConnection} from 'node:net';
import {dirname} from 'node:path';
import {UsageError} from '../lib/usage-error.js';

/** A group's id from `/etc/group`, for `--group NAME`. */
export function groupId(name: string, groupFile = '/etc/group'): number {
	for (const line of readFileSync(groupFile, 'utf8').split('\n')) {
		const [groupName, , id] = line.split(':');
		if (groupName === name && id !== undefined && /^\d+$/.test(id)) {
			return Number(id);
		}
	}

	throw new UsageError(`there is no group "${name}" on this host (see /etc/group): give --group the name of an existing group`);
}

/** Whether an agent answers on the socket (in a folder of this user's): a connection made within a second. */
const answers = async (socketPath: string) =>
	new Promise<boolean>(resolve => {
		const socket = createConnection(socketPath);
		const done = (answered: boolean) => {
			clearTimeout(timer);
			socket.destroy();
			resolve(answered);
		};

		const timer = setTimeout(() => {
			done(false);
		}, 1000);
		socket.once('connect', () => {
			done(true);
		});
		socket.once('error', () => {
			done(false);
		});
	});

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`; // eslint-disable-line no-bitwise

/**
Makes the socket's folder, or takes one made before, and checks it through a handle opened without
following links (so what is checked and changed is the folder itself, never what a link planted in
its place points to). A folder podtop creates gets its mode (and group); one that was there is used
only as it is: this user's, with the mode (and group) an agent gives it. podtop never changes the
mode of a folder it did not create.
*/
function prepareFolder(directory: string, gid: number | undefined): void {
	const mode = gid === undefined ? 0o700 : 0o710;
	mkdirSync(dirname(directory), {recursive: true, mode: 0o700});
	let created = false;
	try {
		mkdirSync(directory, {mode: 0o700});
		created = true;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
			throw error;
		}
	}

	let fd: number;
	try {
		// eslint-disable-next-line no-bitwise
		fd = openSync(directory, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
	} catch (error) {
		const {code} = error as NodeJS.ErrnoException;
		const what =
			code === 'ELOOP' || lstatSync(directory).isSymbolicLink()
				? 'a symbolic link'
				: code === 'ENOTDIR'
					? 'not a folder'
					: `unusable (${code ?? String(error)})`;
		throw new Error(`${directory} is ${what}: podtop will not serve from it (remove it, or set XDG_RUNTIME_DIR to a folder of yours)`, {cause: error});
	}

	try {
		const folder = fstatSync(fd);
		if (process.getuid && folder.uid !== process.getuid()) {
			throw new Error(`${directory} belongs to another user: podtop will not serve the account from it (set XDG_RUNTIME_DIR to a folder of yours)`);
		}

		// eslint-disable-next-line no-bitwise
		const asAnAgentMakesIt = (folder.mode & 0o777) === mode && (gid === undefined || folder.gid === gid);
		if (created) {
			fchmodSync(fd, mode);
			if (gid !== undefined) {
				fchownSync(fd, folder.uid, gid);
			}
		} else if (!asAnAgentMakesIt) {
			const want = gid === undefined ? octal(mode) : `${octal(mode)} of group ${gid}`;
			throw new Error(
				`${directory} was there already with mode ${octal(folder.mode)}${gid === undefined ? '' : ` of group ${folder.gid}`}, not ${want}: podtop changes no folder it did not make (remove it, and the agent makes its own)`,
			);
		}
	} finally {
		closeSync(fd);
	}
}

const lstatOrUndefined = (path: string) => {
	try {
		return lstatSync(path);
	} catch {
		return undefined;
	}
};

/**
Makes ready the place of a socket: its folder, private to its owner (or open to one group: enter,
not list), and no other agent listening there; a socket left by one that died is removed.
*/
export async function prepareSocketPath(socketPath: string, gid?: number): Promise<void> {
	prepareFolder(dirname(socketPath), gid);
	const existing = lstatOrUndefined(socketPath);
	if (existing) {
		if (existing.isSocket() && (await answers(socketPath))) {
			throw new Error(`an agent already serves this account on ${socketPath}`);
		}

		unlinkSync(socketPath);
	}
}

/** Once listening: the socket readable and writable by its owner only, or by one group too. */
export function protectSocket(socketPath: string, gid?: number): void {
	if (gid !== undefined) {
		chownSync(socketPath, process.getuid?.() ?? -1, gid);
	}

	chmodSync(socketPath, gid === undefined ? 0o600 : 0o660);
}

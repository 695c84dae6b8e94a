import {chmodSync, chownSync, existsSync, mkdirSync, readFileSync, statSync, unlinkSync} from 'node:fs';
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

const answers = async (socketPath: string) =>
	new Promise<boolean>(resolve => {
		const socket = createConnection(socketPath);
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => {
			resolve(false);
		});
	});

/**
Makes ready the place of a socket: its folder, private to its owner (or open to one group: enter,
not list), and no other agent listening there; a socket left by one that died is removed.
*/
export async function prepareSocketPath(socketPath: string, gid?: number): Promise<void> {
	const directory = dirname(socketPath);
	mkdirSync(directory, {recursive: true, mode: 0o700});
	const folder = statSync(directory);
	if (process.getuid && folder.uid !== process.getuid()) {
		throw new Error(`${directory} belongs to another user: podtop will not serve the account from it (set XDG_RUNTIME_DIR to a folder of yours)`);
	}

	chmodSync(directory, gid === undefined ? 0o700 : 0o710);
	if (gid !== undefined) {
		chownSync(directory, folder.uid, gid);
	}

	if (existsSync(socketPath)) {
		if (await answers(socketPath)) {
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

import {chmodSync, closeSync, constants, fchmodSync, fstatSync, lstatSync, mkdirSync, openSync, type Stats} from 'node:fs';

/** The mode bits as `chmod` writes them (0755). */
// eslint-disable-next-line no-bitwise
const modeOf = (stats: Stats) => `0${(stats.mode & 0o777).toString(8)}`;
// eslint-disable-next-line no-bitwise
const openToOthers = (stats: Stats) => (stats.mode & 0o077) !== 0;
const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error);

const lstatIfThere = (path: string): Stats | undefined => {
	try {
		return lstatSync(path);
	} catch (error) {
		// Not there, or a file where a folder on its way should be: either way there is nothing to refuse (opening it fails on its own).
		if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') {
			return undefined;
		}

		throw error;
	}
};

/**
Makes a folder private to its user (0700), or says in a few words why it cannot be used (undefined: it can).
A folder podtop makes is made 0700; one that was there already is used only when it is a real folder (not a
link) of this user that no one else can enter, and its mode is never changed: podtop changes the mode of no
folder it did not make (`$TMPDIR` itself, a shared folder, another user's).
*/
export function makePrivateFolder(directory: string, uid = process.getuid?.()): string | undefined {
	let made: string | undefined;
	try {
		made = mkdirSync(directory, {recursive: true, mode: 0o700});
	} catch (error) {
		return `(${errorCode(error)})`;
	}

	try {
		const found = lstatIfThere(directory);
		if (found?.isSymbolicLink()) {
			return 'it is a symbolic link, and podtop follows none to keep history';
		}

		if (!found?.isDirectory()) {
			return 'it is not a folder';
		}

		// Checked and changed through a descriptor that follows no link: the folder seen is the folder changed.
		// eslint-disable-next-line no-bitwise
		const fd = openSync(directory, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
		try {
			const stats = fstatSync(fd);
			if (uid !== undefined && stats.uid !== uid) {
				return `it belongs to another user (uid ${stats.uid})`;
			}

			if (made === undefined) {
				return openToOthers(stats)
					? `other users can enter it (mode ${modeOf(stats)}), and podtop changes the mode only of a folder it made (chmod 700 it yourself)`
					: undefined;
			}

			// eslint-disable-next-line no-bitwise
			if ((stats.mode & 0o777) !== 0o700) {
				// Made here just now: a umask may have taken bits off.
				fchmodSync(fd, 0o700);
			}
		} finally {
			closeSync(fd);
		}
	} catch (error) {
		return `(${errorCode(error)})`;
	}

	return undefined;
}

/** Why a file podtop is about to open is not its to use: a link, not a regular file, or (`uid` given) another user's. Undefined when it is, or is not there yet. */
export function unsafeFile(path: string, uid?: number): string | undefined {
	const stats = lstatIfThere(path);
	if (!stats) {
		return undefined;
	}

	if (stats.isSymbolicLink()) {
		return `${path} is a symbolic link, and podtop follows none`;
	}

	if (!stats.isFile()) {
		return `${path} is not a regular file`;
	}

	if (uid !== undefined && stats.uid !== uid) {
		return `${path} belongs to another user (uid ${stats.uid})`;
	}

	return undefined;
}

/**
Makes a file readable by its owner only (0600): a regular file of this user, not a link (lstat); anything else is left as it is.
Checked by path, not through a descriptor of its own: closing any descriptor of a file lets go of every POSIX lock the process
holds on it, and SQLite's locks (the writer's lock, the database's) are POSIX locks. The folder is private, so no one swaps the file between.
*/
export function keepFilePrivate(path: string, uid = process.getuid?.()): void {
	try {
		const stats = lstatSync(path);
		if (stats.isFile() && (uid === undefined || stats.uid === uid) && openToOthers(stats)) {
			chmodSync(path, 0o600);
		}
	} catch {}
}

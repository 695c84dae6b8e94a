import {createHash} from 'node:crypto';
import {closeSync, existsSync, openSync, renameSync} from 'node:fs';
import {dirname, join} from 'node:path';
import Database from 'libsql';
import {stateDirectory} from '../lib/state-directory.js';
import {migrateBills} from './bill-migration.js';
import {keepFilePrivate, makePrivateFolder, unsafeFile} from './private-folder.js';
import {appName, billStatements, fieldRows, schemaStatements, schemaVersion} from './schema.js';

export type SqliteDatabase = InstanceType<typeof Database>;

/** Why a history file cannot be used, said in one sentence (the caller runs on without history). */
export class HistoryUnavailableError extends Error {
	override name = 'HistoryUnavailableError';
}

/** `$XDG_STATE_HOME/podtop/history`, `~/.local/state/podtop/history` by default: beside the audit log. */
export function defaultHistoryDirectory(env: NodeJS.ProcessEnv = process.env): string {
	return join(stateDirectory(env), 'history');
}

type Service = {readonly apiUrl: string; readonly graphqlUrl: string; readonly apiKey: string};

/**
An account and service as one short id, for the file's name and the audit log's lines: a hash of both (never the key, and a different hash
from the agent's proof and socket name, so the name proves nothing).
*/
export function historyAccountId(service: Service): string {
	return createHash('sha256').update(['podtop history file', service.apiUrl, service.graphqlUrl, service.apiKey].join('\0')).digest('hex').slice(0, 16);
}

/** The account's file in the history folder. */
export const historyFileName = (service: Service) => `account-${historyAccountId(service)}.sqlite`;

const sqliteCode = (error: unknown): string => (typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '');

/** The file is not a database, or a damaged one. */
export const isCorruption = (error: unknown) => /^SQLITE_(NOTADB|CORRUPT)/.test(sqliteCode(error));
/** The disk (or the file's cap) is full. */
export const isDiskFull = (error: unknown) => sqliteCode(error).startsWith('SQLITE_FULL') || /enospc|disk is full/i.test(String(error));

/** Makes the folder if needed, private (0700); one that was there already is used only when it is the user's own and private (its mode is never changed). */
export function ensurePrivateDirectory(directory: string): void {
	const why = makePrivateFolder(directory);
	if (why?.startsWith('(')) {
		throw new HistoryUnavailableError(`cannot use the history folder ${directory} ${why}: choose another with --history-dir, or --no-history`);
	}

	if (why) {
		throw new HistoryUnavailableError(`cannot use the history folder ${directory}: ${why}; choose another with --history-dir, or --no-history`);
	}
}

/** Refuses a file (or one of its companions) that is a link, not a regular file, or (`uid` given) another user's: SQLite would follow a link. */
function refuseUnsafe(file: string, uid: number | undefined): void {
	for (const path of [file, `${file}-wal`, `${file}-shm`]) {
		const why = unsafeFile(path, uid);
		if (why) {
			throw new HistoryUnavailableError(`cannot use the history file: ${why} (--history-dir elsewhere, or --no-history)`);
		}
	}
}

/** The file and its WAL companions readable by their owner only. */
function keepPrivate(file: string): void {
	for (const path of [file, `${file}-wal`, `${file}-shm`]) {
		keepFilePrivate(path);
	}
}

/** Renames a file that cannot be used (and its companions) to `<name>.corrupt-<time>`; returns the new name. */
export function moveAside(file: string, now: number): string {
	const aside = `${file}.corrupt-${new Date(now).toISOString().replaceAll(':', '')}`;
	for (const suffix of ['', '-wal', '-shm']) {
		try {
			renameSync(`${file}${suffix}`, `${aside}${suffix}`);
		} catch {}
	}

	return aside;
}

/** What `meta` says of a file: podtop's of this format, podtop's of a newer one, empty (new), or something else. */
function identify(db: SqliteDatabase): 'ours' | 'newer' | 'empty' | 'foreign' {
	const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).raw().all() as Array<[string]>;
	if (tables.length === 0) {
		return 'empty';
	}

	if (!tables.some(([name]) => name === 'meta')) {
		return 'foreign';
	}

	const rows = db.prepare(`SELECT key, value FROM meta WHERE key IN ('app', 'schema')`).raw().all() as Array<[string, string]>;
	const meta = new Map(rows);
	if (meta.get('app') !== appName) {
		return 'foreign';
	}

	return Number(meta.get('schema')) > schemaVersion ? 'newer' : 'ours';
}

function createSchema(db: SqliteDatabase, now: number): void {
	// Space freed by retention goes back to the file system a little at a time (set before any table).
	db.exec('PRAGMA auto_vacuum = INCREMENTAL');
	db.exec('BEGIN');
	for (const statement of schemaStatements) {
		db.exec(statement);
	}

	const meta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
	meta.run('app', appName);
	meta.run('schema', String(schemaVersion));
	meta.run('created', new Date(now).toISOString());
	const field = db.prepare('INSERT INTO fields (kind, position, name) VALUES (?, ?, ?)');
	for (const row of fieldRows()) {
		field.run(...row);
	}

	db.exec('COMMIT');
}

function configure(db: SqliteDatabase): void {
	db.exec('PRAGMA journal_mode = WAL');
	// Durable across a crash of podtop (kill -9): at most the transaction in flight is lost.
	db.exec('PRAGMA synchronous = NORMAL');
	db.exec('PRAGMA busy_timeout = 2000');
	// The WAL is truncated back to this after each checkpoint, so a burst does not keep its size.
	db.exec('PRAGMA journal_size_limit = 67108864');
	keepCacheSmall(db);
}

/**
Half a megabyte of pages cached, not SQLite's 2 MB: the recorder appends (its pages are the newest)
and the operating system caches the file anyway. At 500 endpoints + 2,000 pods this took 2.4 MB off
the dashboard's peak RSS with no change in its CPU (both builds side by side for five minutes).
*/
function keepCacheSmall(db: SqliteDatabase): void {
	db.exec('PRAGMA cache_size = -512');
}

export type OpenedHistory = {readonly db: SqliteDatabase; readonly file: string; readonly warnings: readonly string[]};

/**
Opens (or starts) the account's file for writing: private, in WAL mode. A corrupt or foreign file
is moved aside and a new one started, said once in `warnings`; a file of a newer podtop, or a
folder that cannot be written, is a HistoryUnavailableError.
*/
export function openHistoryForWriting(file: string, now = Date.now()): OpenedHistory {
	ensurePrivateDirectory(dirname(file));
	const warnings: string[] = [];
	for (let attempt = 0; attempt < 2; attempt++) {
		let db: SqliteDatabase | undefined;
		try {
			refuseUnsafe(file, process.getuid?.());
			if (!existsSync(file)) {
				closeSync(openSync(file, 'wx', 0o600));
			}

			db = new Database(file, {timeout: 2000});
			const what = identify(db);
			if (what === 'newer') {
				db.close();
				throw new HistoryUnavailableError(`${file} was written by a newer podtop: this one leaves it alone (upgrade, or use --history-dir)`);
			}

			if (what === 'foreign') {
				db.close();
				warnings.push(`${file} is not a podtop history: moved to ${moveAside(file, now)}, a new one started`);
				continue;
			}

			configure(db);
			if (what === 'empty') {
				createSchema(db, now);
			}

			// Files of before bills were kept have no bill tables: made on opening, once.
			for (const statement of billStatements) {
				db.exec(statement);
			}

			try {
				migrateBills(db);
			} catch {
				// A full disk: the old rows stay where they were (read as none kept, so asked of the service again); tried again at the next opening.
			}

			keepPrivate(file);
			return {db, file, warnings};
		} catch (error) {
			try {
				db?.close();
			} catch {}

			if (error instanceof HistoryUnavailableError) {
				throw error;
			}

			if (isCorruption(error) && attempt === 0) {
				warnings.push(`${file} was damaged: moved to ${moveAside(file, now)}, a new one started`);
				continue;
			}

			const code = sqliteCode(error) || (error as NodeJS.ErrnoException).code || String(error);
			throw new HistoryUnavailableError(
				`cannot write the history file ${file} (${code}): podtop runs without history (--history-dir elsewhere, or --no-history)`,
			);
		}
	}

	throw new HistoryUnavailableError(`cannot start a history file at ${file}`);
}

/** Opens the file to read only; undefined when there is none (nothing recorded). */
export function openHistoryForReading(file: string): SqliteDatabase | undefined {
	refuseUnsafe(file, undefined);
	if (!existsSync(file)) {
		return undefined;
	}

	let db: SqliteDatabase | undefined;
	try {
		db = new Database(file, {readonly: true, timeout: 2000});
		const what = identify(db);
		if (what === 'ours') {
			db.exec('PRAGMA busy_timeout = 2000');
			keepCacheSmall(db);
			return db;
		}

		db.close();
		throw new HistoryUnavailableError(
			what === 'newer' ? `${file} was written by a newer podtop` : what === 'empty' ? `${file} holds nothing yet` : `${file} is not a podtop history`,
		);
	} catch (error) {
		try {
			db?.close();
		} catch {}

		if (error instanceof HistoryUnavailableError) {
			throw error;
		}

		throw new HistoryUnavailableError(`cannot read the history file ${file} (${sqliteCode(error) || String(error)})`);
	}
}

/** The right to write a file: held while the process lives (the kernel lets go of it even on kill -9). */
export type WriterLock = {readonly release: () => void};

/**
Takes the one writer's lock of a history file, or answers undefined when another podtop holds it.
The lock is an exclusive SQLite lock on `<file>.lock` (a POSIX lock underneath), so it needs no
clean-up: a process that dies lets go of it.
*/
export function takeWriterLock(file: string): WriterLock | undefined {
	const path = `${file}.lock`;
	ensurePrivateDirectory(dirname(path));
	refuseUnsafe(path, process.getuid?.());
	if (!existsSync(path)) {
		try {
			closeSync(openSync(path, 'wx', 0o600));
		} catch {}
	}

	const lock = new Database(path, {timeout: 0});
	try {
		lock.exec('PRAGMA busy_timeout = 0');
		lock.exec('PRAGMA locking_mode = EXCLUSIVE');
		lock.exec('BEGIN EXCLUSIVE');
	} catch {
		lock.close();
		return undefined;
	}

	keepPrivate(path);
	return {
		release() {
			try {
				lock.exec('ROLLBACK');
			} catch {}

			lock.close();
		},
	};
}

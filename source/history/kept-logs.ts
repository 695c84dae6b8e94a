import type {LogLine} from '../model/log-line.js';
import type {SqliteDatabase} from './history-file.js';

/** Lines kept of each gone worker (its crash is in its last lines)… */
export const keptLinesPerWorker = 200;
/** …and at most this many characters of them (the oldest let go first): 200 lines of ~100 characters fit 3 times over. */
export const keptCharsPerWorker = 64 * 1024;
/** A kept line is cut to this length (`truncated`): a 1 MB line takes no more than 16 of a worker's share. */
export const keptLineChars = 4096;
/** The last this many gone workers of each endpoint are kept… */
export const keptWorkersPerEndpoint = 50;
/** …and this many in all (deleted endpoints' workers go first, being oldest): at most 500 × 64 kB = 32 MB of text. */
export const keptWorkersInAll = 500;

/**
The `kept_logs` table: one row per gone worker, its last lines as one JSON array, written in one
transaction (a `kill -9` leaves the row before or after, never half of it). Created on opening for
files that predate it (added, as `IF NOT EXISTS`, without a new schema version: older podtops ignore it).
*/
export const keptLogsStatements: readonly string[] = [
	`CREATE TABLE IF NOT EXISTS kept_logs (endpoint TEXT NOT NULL, worker TEXT NOT NULL, at INTEGER NOT NULL, lines TEXT NOT NULL, PRIMARY KEY (endpoint, worker)) WITHOUT ROWID`,
	`CREATE INDEX IF NOT EXISTS kept_logs_at ON kept_logs (endpoint, at)`,
];

/** The last lines of gone workers, as the history file keeps them. */
export type KeptLogs = {
	/** Keeps (or replaces) a worker's last lines, bounded; the endpoint's and the file's oldest beyond the bounds are let go. */
	readonly keep: (endpointId: string, workerId: string, lines: readonly LogLine[], at: number) => void;
	/** A gone worker's kept lines, oldest first; undefined when none were kept (or the file predates the table). */
	readonly read: (endpointId: string, workerId: string) => readonly LogLine[] | undefined;
	/** The endpoint's workers with kept lines, the most recently gone last. */
	readonly workers: (endpointId: string) => readonly string[];
};

/** A line cut to `keptLineChars` (never half a surrogate pair), marked when cut. */
function bounded(line: LogLine): LogLine {
	if (line.line.length <= keptLineChars) {
		return line;
	}

	const cut = line.line.slice(0, keptLineChars);
	return {...line, line: /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut, truncated: true};
}

/** The newest lines within the per-worker bounds. */
export function keptShare(lines: readonly LogLine[]): LogLine[] {
	const kept: LogLine[] = [];
	let chars = 0;
	for (let index = lines.length - 1; index >= 0 && kept.length < keptLinesPerWorker; index--) {
		const line = bounded(lines[index]!);
		chars += line.line.length;
		if (chars > keptCharsPerWorker) {
			break;
		}

		kept.push(line);
	}

	return kept.reverse();
}

/** A line read back from the file, checked field by field (the file is another process's writing; its text is sanitised where shown). */
function readLine(value: unknown): LogLine | undefined {
	if (typeof value !== 'object' || value === null) {
		return undefined;
	}

	const {id, ts, source, line, raw, truncated} = value as Record<string, unknown>;
	return typeof id === 'string' && typeof ts === 'number' && Number.isFinite(ts) && (source === 'container' || source === 'system') && typeof line === 'string'
		? bounded({id, ts, source, line, ...(raw === true ? {raw} : {}), ...(truncated === true ? {truncated} : {})})
		: undefined;
}

const missingTable = (error: unknown) => /no such table/i.test(String(error));

/**
Lets go of the workers gone before `cutoff` (epoch ms): kept lines are pruned by age as the timeline's
events are (the hour tier's retention), not only by count. A file that predates the table has none.
*/
export function pruneKeptLogs(db: SqliteDatabase, cutoff: number): void {
	try {
		db.prepare(`DELETE FROM kept_logs WHERE at < ?`).run(cutoff);
	} catch (error) {
		if (!missingTable(error)) {
			throw error;
		}
	}
}

/** The kept lines in a history file: `writable` for the recorder (the table made if missing), else read only. */
export function keptLogsIn(db: SqliteDatabase, {writable}: {readonly writable: boolean}): KeptLogs {
	if (writable) {
		for (const statement of keptLogsStatements) {
			db.exec(statement);
		}
	}

	return {
		keep(endpointId, workerId, lines, at) {
			const kept = keptShare(lines);
			if (kept.length === 0) {
				return;
			}

			db.exec('BEGIN IMMEDIATE');
			try {
				db.prepare(
					`INSERT INTO kept_logs (endpoint, worker, at, lines) VALUES (?, ?, ?, ?) ON CONFLICT (endpoint, worker) DO UPDATE SET at = excluded.at, lines = excluded.lines`,
				).run(endpointId, workerId, at, JSON.stringify(kept));
				db.prepare(
					`DELETE FROM kept_logs WHERE endpoint = ? AND worker NOT IN (SELECT worker FROM kept_logs WHERE endpoint = ? ORDER BY at DESC, worker LIMIT ?)`,
				).run(endpointId, endpointId, keptWorkersPerEndpoint);
				db.prepare(
					`DELETE FROM kept_logs WHERE (endpoint, worker) NOT IN (SELECT endpoint, worker FROM kept_logs ORDER BY at DESC, endpoint, worker LIMIT ?)`,
				).run(keptWorkersInAll);
				db.exec('COMMIT');
			} catch (error) {
				db.exec('ROLLBACK');
				throw error;
			}
		},
		read(endpointId, workerId) {
			let row: [string] | undefined;
			try {
				row = db.prepare(`SELECT lines FROM kept_logs WHERE endpoint = ? AND worker = ?`).raw().get(endpointId, workerId) as [string] | undefined;
			} catch (error) {
				if (missingTable(error)) {
					return undefined;
				}

				throw error;
			}

			if (!row) {
				return undefined;
			}

			let parsed: unknown;
			try {
				parsed = JSON.parse(row[0]);
			} catch {
				return undefined;
			}

			const lines = Array.isArray(parsed) ? parsed.slice(-keptLinesPerWorker).flatMap(value => readLine(value) ?? []) : [];
			return lines.length > 0 ? lines : undefined;
		},
		workers(endpointId) {
			try {
				const rows = db.prepare(`SELECT worker FROM kept_logs WHERE endpoint = ? ORDER BY at, worker`).raw().all(endpointId) as Array<[string]>;
				return rows.map(([worker]) => worker);
			} catch (error) {
				if (missingTable(error)) {
					return [];
				}

				throw error;
			}
		},
	};
}

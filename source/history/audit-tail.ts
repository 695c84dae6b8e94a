import {closeSync, openSync, readSync, statSync} from 'node:fs';
import {readAuditLine} from './audit-record.js';
import {writeEvent, type EventRow} from './event-rows.js';

export type AuditPosition = {readonly inode: number; readonly offset: number};

/** At most this much of the log is read in one look (a log grown huge while nobody recorded is read over several). */
const maxReadBytes = 1024 * 1024;

/** A write of the audit log as an event of the timeline; undefined for another account's or a line that is not one. */
export function auditEvent(line: string, account: string): (EventRow & {readonly at: number}) | undefined {
	const entry = readAuditLine(line);
	return entry?.account === account ? writeEvent(entry) : undefined;
}

/**
Reads what was appended to the audit log since `position` (every podtop of this user appends its
writes there), and says where it got to. A log that was replaced (another inode) or cut is read
from its start.
*/
export function readAuditSince(path: string, position: AuditPosition | undefined): {readonly lines: string[]; readonly position: AuditPosition} | undefined {
	let stat;
	try {
		stat = statSync(path);
	} catch {
		return undefined;
	}

	const from = position?.inode === stat.ino && position.offset <= stat.size ? position.offset : 0;
	if (from >= stat.size) {
		return {lines: [], position: {inode: stat.ino, offset: from}};
	}

	const length = Math.min(maxReadBytes, stat.size - from);
	const buffer = Buffer.alloc(length);
	const fd = openSync(path, 'r');
	try {
		readSync(fd, buffer, 0, length, from);
	} finally {
		closeSync(fd);
	}

	// Only whole lines: a line being appended now is read next time.
	const end = buffer.lastIndexOf(10);
	if (end === -1) {
		return {lines: [], position: {inode: stat.ino, offset: from}};
	}

	const lines = buffer.subarray(0, end).toString('utf8').split('\n').filter(Boolean);
	return {lines, position: {inode: stat.ino, offset: from + end + 1}};
}

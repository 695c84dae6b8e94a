import type {RestQuery} from '../rest/query.js';
import {invalid, RestError} from '../rest/rest-error.js';
import {logSources, type LogLine, type LogSource} from './log-ring.js';

/** The spec's `tail`: 100 lines when omitted, 0 for live lines only, at most 5,000. */
export const defaultTail = 100;
export const maxTail = 5000;

/** Where a log stream starts and which lines it carries. */
export type LogQuery = {
	/** One source, or both when absent. */
	readonly source?: LogSource;
	readonly tail: number;
	/** `since`: lines from this second on (epoch ms). */
	readonly since?: number;
	/** `Last-Event-ID`: lines after this one. */
	readonly after?: {readonly ts: number; readonly seq?: number};
};

const second = (ms: number) => Math.floor(ms / 1000) * 1000;
const rfc3339 = /^\d{4}-\d\d-\d\dt\d\d:\d\d:\d\d(?:\.\d+)?(?:z|[+-]\d\d:\d\d)$/i;

const parseTime = (text: string): number | undefined => (rfc3339.test(text) ? Date.parse(text) : undefined);

/** An event's id: its second and its place in the worker's (or pod's) log, `2026-06-01T12:05:04Z/000000000042`. */
export const eventId = (line: LogLine) => `${new Date(second(line.ts)).toISOString().replace('.000Z', 'Z')}/${String(line.seq).padStart(12, '0')}`;

/** `source`, `tail`, `since` and the `Last-Event-ID` header, which wins over both (400/422 when malformed). */
export function parseLogQuery(query: RestQuery, lastEventId: string | undefined): LogQuery {
	const source = query.one('source', logSources);
	const tail = query.integer('tail', 0) ?? defaultTail;
	if (tail > maxTail) {
		throw invalid([`tail: must be at most ${maxTail}, got ${tail}`]);
	}

	const sinceText = query.string('since');
	const since = sinceText === undefined ? undefined : parseTime(sinceText);
	if (sinceText !== undefined && since === undefined) {
		throw invalid([`since: must be an RFC 3339 timestamp, got "${sinceText}"`]);
	}

	let after: LogQuery['after'];
	if (lastEventId !== undefined) {
		const [, time, seq] = /^([^/]+)(?:\/(\d{1,15}))?$/.exec(lastEventId.trim()) ?? [];
		const ts = time === undefined ? undefined : parseTime(time);
		if (ts === undefined) {
			throw new RestError(400, `Last-Event-ID must be an event id this stream sent (a timestamp, optionally /sequence), got "${lastEventId.slice(0, 80)}"`);
		}

		after = {ts, ...(seq === undefined ? {} : {seq: Number(seq)})};
	}

	return {...(source ? {source} : {}), tail, ...(since === undefined ? {} : {since}), ...(after ? {after} : {})};
}

/** Whether a line follows the resume point: exactly after its sequence number, or after its whole second for a bare timestamp. */
export function isAfter(line: LogLine, after: NonNullable<LogQuery['after']>): boolean {
	return after.seq === undefined ? second(line.ts) > second(after.ts) : line.seq > after.seq;
}

/** The kept lines a new stream starts with: after `Last-Event-ID`, else from `since`, else the last `tail`. */
export function backlogOf(lines: readonly LogLine[], query: LogQuery): LogLine[] {
	const wanted = query.source ? lines.filter(line => line.source === query.source) : [...lines];
	if (query.after) {
		return wanted.filter(line => isAfter(line, query.after!));
	}

	if (query.since !== undefined) {
		return wanted.filter(line => second(line.ts) >= second(query.since!));
	}

	return query.tail === 0 ? [] : wanted.slice(-query.tail);
}

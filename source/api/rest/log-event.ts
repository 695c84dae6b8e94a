import type {LogLine, LogSource} from '../../model/log-line.js';

/** The longest log line kept, in characters; the rest is cut and the line marked `truncated`. */
export const maxLogLineChars = 16 * 1024;

const sources = new Set<string>(['container', 'system']);

type Event = {readonly id: string | undefined; readonly data: string};

const cutLine = (text: string): {line: string; truncated: boolean} =>
	text.length > maxLogLineChars ? {line: text.slice(0, maxLogLineChars), truncated: true} : {line: text, truncated: false};

/** Epoch ms of an RFC 3339 text, or undefined. */
function timeOf(text: unknown): number | undefined {
	if (typeof text !== 'string' || !/^\d{4}-\d\d-\d\dt/i.test(text)) {
		return undefined;
	}

	const ms = Date.parse(text);
	return Number.isNaN(ms) ? undefined : ms;
}

/** The spec's `{ts, source, line}`, or undefined when `value` is not it. */
function specData(value: unknown): {ts: number; source: LogSource; line: string} | undefined {
	if (typeof value !== 'object' || value === null) {
		return undefined;
	}

	const {ts, source, line} = value as Record<string, unknown>;
	const ms = timeOf(ts);
	return ms !== undefined && typeof source === 'string' && sources.has(source) && typeof line === 'string'
		? {ts: ms, source: source as LogSource, line}
		: undefined;
}

const parsed = (text: string): unknown => {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return undefined;
	}
};

/**
The spec's JSON cut short on the way in (its `line` last, as the service sends it): closed again after
dropping a half escape at the cut, so the line's start is kept. Undefined when that does not give the spec's shape.
*/
function recovered(text: string): {ts: number; source: LogSource; line: string} | undefined {
	const whole = /\\u[\da-f]{0,3}$/i.test(text) ? text.replace(/\\u[\da-f]{0,3}$/i, '') : text;
	// An odd run of backslashes at the end is half an escape.
	const closed = /(?:^|[^\\])(?:\\\\)*\\$/.test(whole) ? whole.slice(0, -1) : whole;
	return specData(parsed(`${closed}"}`));
}

/**
One server-sent event as a log line: the spec's JSON (`ts`, `source`, `line`), its line cut to
`maxLogLineChars`; an event cut on the way in (`cut`: past the stream's bounds) is `truncated`;
a `data` that is not the spec's JSON is kept as it came, marked `raw` (its time read from the
event id, `2026-06-01T12:05:04Z/…`, else now). `fallbackSource` is the source asked for, if one was.
*/
export function logLineOf(event: Event, cut: boolean, fallbackSource: LogSource | undefined, now = Date.now()): LogLine {
	const id = event.id ?? '';
	const data = specData(parsed(event.data)) ?? (cut ? recovered(event.data) : undefined);
	if (data) {
		const {line, truncated} = cutLine(data.line);
		return {id, ts: data.ts, source: data.source, line, ...(truncated || cut ? {truncated: true} : {})};
	}

	const {line, truncated} = cutLine(event.data);
	return {
		id,
		ts: timeOf(id.split('/')[0]) ?? now,
		source: fallbackSource ?? 'container',
		line,
		raw: true,
		...(truncated || cut ? {truncated: true} : {}),
	};
}

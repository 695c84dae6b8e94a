import {formatClock} from '../format/clock.js';
import {inertJson, sanitizeLine} from '../format/sanitize.js';
import type {LogSettings} from '../view-state/log-settings.js';
import type {MatchSpan} from '../view-state/filter-matcher.js';
import type {ShownLine} from './log-selection.js';

/** How a piece of a row is drawn: the pane gives each its colour (a worker's own for `origin`). */
export type PartStyle = 'time' | 'origin' | 'mark' | 'text' | 'match' | 'context' | 'gap';

export type RowPart = {readonly text: string; readonly style: PartStyle};

/** One terminal row of the log view: its pieces, and the worker or pod the line came from (its colour). */
export type LogRow = {readonly parts: readonly RowPart[]; readonly origin?: string};

export type LayoutOptions = Pick<LogSettings, 'wrap' | 'timestamps' | 'json'> & {
	readonly width: number;
	/** A merged view: each line starts with its worker's short id. */
	readonly merged: boolean;
	/** Both sources followed: a system line is marked as one. */
	readonly bothSources: boolean;
	/** Where the filter matched in a text (none: no highlight). */
	readonly spans: (text: string) => readonly MatchSpan[];
	/** For the timestamps' day: a line of another day says its date. */
	readonly now: number;
};

/** A worker's id as a merged view prefixes its lines: its first 8 characters, as stern shortens pod names. */
export const shortOrigin = (origin: string) => sanitizeLine(origin).slice(0, 8).padEnd(8);

/** A JSON object or array pretty-printed (inert), one text per line; undefined when the line is not one. */
function prettyJson(text: string): string[] | undefined {
	const trimmed = text.trim();
	if (!/^[{[]/.test(trimmed)) {
		return undefined;
	}

	try {
		return inertJson(JSON.parse(trimmed), 2)
			.split('\n')
			.map(line => sanitizeLine(line));
	} catch {
		return undefined;
	}
}

/** Where a row may end without splitting a surrogate pair (a character outside the BMP stays whole). */
function cutAt(text: string, at: number): number {
	// A code point past the BMP read at `at - 1` starts there: its second half is past the cut.
	return at < text.length && at > 0 && text.codePointAt(at - 1)! > 0xff_ff ? at - 1 : at;
}

/** The text between `from` and `to` in pieces, the filter's matches among them marked. */
function pieces(text: string, from: number, to: number, spans: readonly MatchSpan[], base: PartStyle): RowPart[] {
	const parts: RowPart[] = [];
	let at = from;
	for (const [start, end] of spans) {
		if (end <= at || start >= to) {
			continue;
		}

		if (start > at) {
			parts.push({text: text.slice(at, start), style: base});
		}

		parts.push({text: text.slice(Math.max(at, start), Math.min(to, end)), style: 'match'});
		at = Math.min(to, end);
	}

	if (at < to) {
		parts.push({text: text.slice(at, to), style: base});
	}

	return parts;
}

/** One text (a line, or a line of its pretty JSON) in rows of `room` columns: wrapped, or cut with an ellipsis. */
function textRows(text: string, room: number, wrap: boolean, spans: readonly MatchSpan[], base: PartStyle): RowPart[][] {
	const {length} = text;
	if (!wrap) {
		if ([...text].length <= room) {
			return [pieces(text, 0, length, spans, base)];
		}

		const end = cutAt(text, Math.max(0, room - 1));
		return [[...pieces(text, 0, end, spans, base), {text: '…', style: 'mark'}]];
	}

	const rows: RowPart[][] = [];
	let start = 0;
	do {
		const end = Math.max(start + 1, cutAt(text, Math.min(length, start + room)));
		rows.push(pieces(text, start, Math.min(end, length), spans, base));
		start = end;
	} while (start < length);

	return rows;
}

/**
A shown line as the rows it takes at a width: its time and worker prefix (on its first row; the
rows after it indented under its text), marks for what the service sent raw or cut, its text or
pretty JSON, wrapped or cut. Every text here is already inert.
*/
export function layoutLine(shown: ShownLine, options: LayoutOptions): LogRow[] {
	if (shown.kind === 'gap') {
		return [{parts: [{text: '--', style: 'gap'}]}];
	}

	const {line, text} = shown;
	const prefix: RowPart[] = [];
	if (options.timestamps) {
		prefix.push({text: `${formatClock(line.ts, options.now)} `, style: 'time'});
	}

	if (options.merged) {
		prefix.push({text: `${shortOrigin(line.origin)} `, style: 'origin'});
	}

	if (line.note) {
		// Podtop's own word (a worker joined or left), not the service's.
		prefix.push({text: 'podtop ', style: 'mark'});
	} else if (options.bothSources && line.source === 'system') {
		prefix.push({text: 'sys ', style: 'mark'});
	}

	if (line.raw) {
		prefix.push({text: '[raw] ', style: 'mark'});
	}

	const indent = prefix.reduce((total, part) => total + [...part.text].length, 0);
	// Too narrow to indent: the rows after the first start at the left edge.
	const hanging = options.width - indent >= 20 ? indent : 0;
	const base: PartStyle = shown.kind === 'context' ? 'context' : 'text';
	const texts = (options.json ? prettyJson(text) : undefined) ?? [text];
	const rows: LogRow[] = [];
	for (const [index, piece] of texts.entries()) {
		const spans = options.spans(piece);
		const first = rows.length === 0;
		const room = Math.max(1, options.width - (first ? indent : hanging));
		const pieceRows = textRows(piece, room, options.wrap, spans, base);
		if (line.truncated && index === texts.length - 1) {
			pieceRows.at(-1)!.push({text: ' [cut]', style: 'mark'});
		}

		for (const parts of pieceRows) {
			const lead = rows.length === 0 ? prefix : hanging > 0 ? [{text: ' '.repeat(hanging), style: 'text' as const}] : [];
			rows.push({parts: [...lead, ...parts], origin: line.origin});
		}
	}

	return rows;
}

import {sanitizeLine} from '../format/sanitize.js';
import type {SessionLine} from '../model/log-session.js';
import {filterMatcher, matchesEverything} from '../view-state/filter-matcher.js';
import type {LogContext} from '../view-state/log-settings.js';

/** A line the log view shows (a match, a line of context around one, or any line when none is filtered), or the mark between two runs of them. */
export type ShownLine =
	| {readonly kind: 'line' | 'match' | 'context'; readonly seq: number; readonly line: SessionLine; readonly text: string}
	/** Between two runs of matches and their context: its seq is half a line before the next run's first. */
	| {readonly kind: 'gap'; readonly seq: number};

export type LogSelection = {
	readonly shown: readonly ShownLine[];
	/** Lines the filter matched (every line when there is none). */
	readonly matches: number;
};

/** Each line's text sanitised once, however many frames show it: a session keeps the same line objects as its buffer moves. */
const sanitized = new WeakMap<SessionLine, string>();

/** A log line as the view shows it and its filter reads it: inert (escape sequences, NUL, newlines shown as symbols). */
export function lineText(line: SessionLine): string {
	let text = sanitized.get(line);
	if (text === undefined) {
		text = sanitizeLine(line.line);
		sanitized.set(line, text);
	}

	return text;
}

/**
The lines a filter keeps (a regex on the line's text; a leading `!` inverts), each with `context`
lines around it as grep's `-C` does, a gap mark between runs that do not touch.
*/
export function selectLogLines(lines: readonly SessionLine[], filter: string, context: LogContext): LogSelection {
	if (matchesEverything(filter)) {
		return {shown: lines.map(line => ({kind: 'line', seq: line.seq, line, text: lineText(line)})), matches: lines.length};
	}

	const matches = filterMatcher(filter);
	const matched = lines.map(line => matches(lineText(line)));
	const shown: ShownLine[] = [];
	let count = 0;
	// The last index shown, and how far the last match's context reaches.
	let last = -1;
	let reach = -1;
	for (const [index, line] of lines.entries()) {
		const isMatch = matched[index]!;
		const before = context > 0 && !isMatch && matched.slice(index + 1, index + 1 + context).includes(true);
		if (isMatch) {
			count++;
			reach = index + context;
		}

		if (!isMatch && !before && index > reach) {
			continue;
		}

		if (context > 0 && last !== -1 && index > last + 1) {
			shown.push({kind: 'gap', seq: line.seq - 0.5});
		}

		shown.push({kind: isMatch ? 'match' : 'context', seq: line.seq, line, text: lineText(line)});
		last = index;
	}

	return {shown, matches: count};
}

/** The index of the last shown line at or before `seq` (-1: none is). Seqs only grow along the buffer. */
export function indexAtOrBefore(shown: readonly ShownLine[], seq: number): number {
	let low = 0;
	let high = shown.length - 1;
	let found = -1;
	while (low <= high) {
		const middle = Math.floor((low + high) / 2);
		if (shown[middle]!.seq <= seq) {
			found = middle;
			low = middle + 1;
		} else {
			high = middle - 1;
		}
	}

	return found;
}

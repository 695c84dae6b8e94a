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

type Kind = 'line' | 'match' | 'context';

/**
Each line's shown form of each kind, made once: the same object in every frame, so the layout's cache
(keyed on it) lays a line out once rather than each frame it is on screen (at 200 lines a second and
30 frames, a screenful of 38 lines laid out 30 times a second before), and a frame allocates nothing per buffered line.
*/
const shownForms: Record<Kind, WeakMap<SessionLine, ShownLine>> = {line: new WeakMap(), match: new WeakMap(), context: new WeakMap()};

function shownOf(line: SessionLine, kind: Kind): ShownLine {
	const forms = shownForms[kind];
	let shown = forms.get(line);
	if (shown === undefined) {
		shown = {kind, seq: line.seq, line, text: lineText(line)};
		forms.set(line, shown);
	}

	return shown;
}

/** Whether each line matched the last filter asked of it (the lines stay, the filter changes rarely): a frame tests only the lines that arrived since. */
let matchCache: {readonly filter: string; readonly matches: (text: string) => boolean; readonly results: WeakMap<SessionLine, boolean>} | undefined;

function matcherOf(filter: string): (line: SessionLine) => boolean {
	if (matchCache?.filter !== filter) {
		matchCache = {filter, matches: filterMatcher(filter), results: new WeakMap()};
	}

	const {matches, results} = matchCache;
	return line => {
		let result = results.get(line);
		if (result === undefined) {
			result = matches(lineText(line));
			results.set(line, result);
		}

		return result;
	};
}

/**
The lines a filter keeps (a regex on the line's text; a leading `!` inverts), each with `context`
lines around it as grep's `-C` does, a gap mark between runs that do not touch.
*/
export function selectLogLines(lines: readonly SessionLine[], filter: string, context: LogContext): LogSelection {
	if (matchesEverything(filter)) {
		return {shown: lines.map(line => shownOf(line, 'line')), matches: lines.length};
	}

	const matches = matcherOf(filter);
	const matched = lines.map(line => matches(line));
	const shown: ShownLine[] = [];
	let count = 0;
	// The last index shown, how far the last match's context reaches, and the next match at or after an index.
	let last = -1;
	let reach = -1;
	let nextMatch = -1;
	for (const [index, line] of lines.entries()) {
		const isMatch = matched[index]!;
		if (context > 0 && nextMatch < index) {
			nextMatch = matched.indexOf(true, index);
			if (nextMatch === -1) {
				nextMatch = Number.POSITIVE_INFINITY;
			}
		}

		const before = context > 0 && !isMatch && nextMatch <= index + context;
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

		shown.push(shownOf(line, isMatch ? 'match' : 'context'));
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

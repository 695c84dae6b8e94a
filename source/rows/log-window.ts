import type {LogRow} from './log-layout.js';
import {indexAtOrBefore, type ShownLine} from './log-selection.js';

/** What the log view shows at its height: the rows, the index of the last line among them, and the lines below it (unseen while paused). */
export type LogWindow = {readonly rows: readonly LogRow[]; readonly lastIndex: number; readonly below: number};

type Layout = (shown: ShownLine) => readonly LogRow[];

/** The first index a paused view may end at: the lines up to it fill the screen (the view never ends above a full screen). */
export function firstEnd(shown: readonly ShownLine[], height: number, layout: Layout): number {
	let rows = 0;
	for (const [index, line] of shown.entries()) {
		rows += layout(line).length;
		if (rows >= height) {
			return index;
		}
	}

	return shown.length - 1;
}

/** Where the view ends: the tail when following; while paused, the last line at or before the anchor (a screenful down from the top at least). */
export function lastShownIndex(shown: readonly ShownLine[], end: number | undefined, height: number, layout: Layout): number {
	if (end === undefined) {
		return shown.length - 1;
	}

	return Math.max(indexAtOrBefore(shown, end), firstEnd(shown, height, layout));
}

/** Lines (not gap marks) after an index. */
function linesAfter(shown: readonly ShownLine[], index: number): number {
	let count = 0;
	for (let next = index + 1; next < shown.length; next++) {
		if (shown[next]!.kind !== 'gap') {
			count++;
		}
	}

	return count;
}

/**
The rows on screen: from the line the view ends at, up until the height is filled (only the lines
shown are laid out: a buffer of thousands costs a screenful). The top line may show only its last rows.
*/
export function logWindow(shown: readonly ShownLine[], end: number | undefined, height: number, layout: Layout): LogWindow {
	const lastIndex = lastShownIndex(shown, end, height, layout);
	const rows: LogRow[] = [];
	for (let index = lastIndex; index >= 0 && rows.length < height; index--) {
		rows.unshift(...layout(shown[index]!));
	}

	return {rows: rows.slice(Math.max(0, rows.length - height)), lastIndex, below: linesAfter(shown, lastIndex)};
}

/**
The anchor after a scroll of `by` lines up (down when negative), or to the top or the tail: the
seq of the line the view ends at, or undefined to follow the tail (scrolled down to its last line).
*/
export function scrolledEnd(
	shown: readonly ShownLine[],
	end: number | undefined,
	height: number,
	layout: Layout,
	step: {readonly by?: number; readonly to?: 'top' | 'tail'},
): number | undefined {
	if (step.to === 'tail' || shown.length === 0) {
		return undefined;
	}

	const first = firstEnd(shown, height, layout);
	const current = lastShownIndex(shown, end, height, layout);
	const index = step.to === 'top' ? first : Math.max(first, Math.min(shown.length - 1, current - (step.by ?? 0)));
	return index >= shown.length - 1 ? undefined : shown[index]!.seq;
}

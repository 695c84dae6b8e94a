/** A text being edited and where its cursor is (an index into the text). */
export type Editing = {readonly text: string; readonly cursor: number};

const clampCursor = (text: string, cursor: number) => Math.max(0, Math.min(text.length, cursor));

export function insertAt({text, cursor}: Editing, inserted: string): Editing {
	const at = clampCursor(text, cursor);
	return {text: text.slice(0, at) + inserted + text.slice(at), cursor: at + inserted.length};
}

export function deleteBefore({text, cursor}: Editing): Editing {
	const at = clampCursor(text, cursor);
	return at === 0 ? {text, cursor: at} : {text: text.slice(0, at - 1) + text.slice(at), cursor: at - 1};
}

/** Where the cursor stands as a line and column of the text. */
export function lineAndColumn(text: string, cursor: number): {readonly line: number; readonly column: number} {
	const before = text.slice(0, clampCursor(text, cursor));
	const lineStart = before.lastIndexOf('\n') + 1;
	return {line: before.split('\n').length - 1, column: before.length - lineStart};
}

/** The cursor one line up or down, keeping its column where the line allows; undefined past the first or last line. */
export function cursorToLine(text: string, cursor: number, by: 1 | -1): number | undefined {
	const lines = text.split('\n');
	const {line, column} = lineAndColumn(text, cursor);
	const target = line + by;
	if (target < 0 || target >= lines.length) {
		return undefined;
	}

	const start = lines.slice(0, target).reduce((sum, each) => sum + each.length + 1, 0);
	return start + Math.min(column, lines[target]!.length);
}

/** The start or end of the cursor's line. */
export function cursorToLineEdge(text: string, cursor: number, edge: 'home' | 'end'): number {
	const at = clampCursor(text, cursor);
	if (edge === 'home') {
		return text.lastIndexOf('\n', at - 1) + 1;
	}

	const end = text.indexOf('\n', at);
	return end === -1 ? text.length : end;
}

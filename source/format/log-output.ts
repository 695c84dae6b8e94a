import {inertJson, sanitizeLine} from './sanitize.js';

/** A log line as a session keeps it (the model's SessionLine: what this formats of it). */
type SessionLine = {
	readonly id: string;
	readonly ts: number;
	readonly source: string;
	readonly line: string;
	readonly origin: string;
	readonly raw?: boolean;
	readonly truncated?: boolean;
};

/** Foreground colours a merged log gives its workers (as stern does), by a hash of the worker's id: the same worker keeps its colour. */
const workerColours = [36, 33, 35, 32, 34, 91, 96, 93, 95, 92] as const;

function colourOf(origin: string): number {
	let hash = 0;
	for (const character of origin) {
		hash = Math.trunc(hash * 31 + character.codePointAt(0)!) % 1_000_003;
	}

	return workerColours[hash % workerColours.length]!;
}

/** Marks a line kept raw (its data was not the spec's JSON) or cut (past 16 k characters). */
const marks = (line: SessionLine) => `${line.raw ? ' [raw]' : ''}${line.truncated ? ' [truncated]' : ''}`;

/**
One log line for a terminal or a pipe, sanitised: its text alone (as `kubectl logs` prints it), or, merged,
prefixed with its worker (`[worker] text`), the prefix coloured when `colour` (a terminal).
*/
export function formatLogLine(line: SessionLine, {merged, colour}: {readonly merged: boolean; readonly colour: boolean}): string {
	const text = `${sanitizeLine(line.line)}${marks(line)}`;
	if (!merged) {
		return text;
	}

	const prefix = `[${sanitizeLine(line.origin)}]`;
	return `${colour ? `\u001B[${colourOf(line.origin)}m${prefix}\u001B[39m` : prefix} ${text}`;
}

/** One log line as a JSON line (`--jsonl`), inert for a terminal: `ts` as RFC 3339, where it came from, its event id. */
export function logLineJson(line: SessionLine, originKind: 'pod' | 'worker'): string {
	return inertJson({
		ts: new Date(line.ts).toISOString(),
		[originKind]: line.origin,
		source: line.source,
		line: line.line,
		id: line.id,
		...(line.raw ? {raw: true} : {}),
		...(line.truncated ? {truncated: true} : {}),
	});
}

import type {LogSource} from '../model/log-line.js';

/** How many lines around each match the filtered log view shows: `c` goes round them. */
export const logContexts = [0, 2, 5] as const;
export type LogContext = (typeof logContexts)[number];

/** How the log view shows its session's lines: where it holds still, what it filters, and how each line is laid out. */
export type LogSettings = {
	/**
	The seq of the last line shown while paused (the same lines stay on screen as lines arrive below
	and old ones drop off above); undefined follows the tail.
	*/
	readonly end: number | undefined;
	/** A regex; a leading `!` inverts (as the panes' `/`). */
	readonly filter: string;
	readonly context: LogContext;
	readonly wrap: boolean;
	readonly timestamps: boolean;
	/** JSON lines pretty-printed. */
	readonly json: boolean;
	/** Which of a stream's sources to follow; undefined: both. */
	readonly source: LogSource | undefined;
};

export const initialLogSettings: LogSettings = {end: undefined, filter: '', context: 0, wrap: true, timestamps: false, json: false, source: undefined};

/** The source after `s`: both, then the container's, then the system's. */
export function nextLogSource(source: LogSource | undefined): LogSource | undefined {
	return source === undefined ? 'container' : source === 'container' ? 'system' : undefined;
}

export const nextLogContext = (context: LogContext): LogContext => logContexts[(logContexts.indexOf(context) + 1) % logContexts.length] ?? 0;

import type {LogLine, LogQuery, LogSource, LogStreamState} from './log-line.js';

/** What a log view or `podtop logs` follows: a pod, one worker, or every worker of an endpoint merged (as stern does). */
export type LogSubject =
	| {readonly kind: 'pod'; readonly podId: string}
	| {readonly kind: 'worker'; readonly endpointId: string; readonly workerId: string}
	| {readonly kind: 'endpoint'; readonly endpointId: string};

/** A line as a session keeps it: which stream it came from (the worker's id in a merged view) and its place in the buffer. */
export type SessionLine = LogLine & {
	/** The worker or pod id the line came from. */
	readonly origin: string;
	/** Increases by one per line the session ever took (dropped lines included): a view's anchor while it is paused. */
	readonly seq: number;
	/** Podtop's own line in a merged view, not the service's: its worker joined or left (a system line, its id empty). */
	readonly note?: true;
};

/** One upstream stream of a session and its state (a merged view has one per worker). */
export type StreamStatus = {
	readonly origin: string;
	readonly state: LogStreamState;
	/** Why it is reconnecting, ended, gone or failed, sanitised; and when it tries again (epoch ms). */
	readonly reason?: string;
	readonly retryAt?: number;
	/** Why `failed`: the key or its role was refused (`auth`), or the query was (`invalid`); a verb's exit status reads it. */
	readonly refusal?: 'auth' | 'invalid';
};

/** What a session holds now: a bounded buffer of the latest lines, how many it dropped, and each stream's state. */
export type LogSnapshot = {
	readonly lines: readonly SessionLine[];
	/** Lines dropped from the start of the buffer since the session opened. */
	readonly dropped: number;
	/** The buffer's bound in lines. */
	readonly capacity: number;
	readonly streams: readonly StreamStatus[];
	readonly query: LogQuery;
};

/** A followed log: subscribe for changes (at most one call per frame's worth of lines), read the snapshot, close to stop every stream. */
export type LogSession = {
	readonly subject: LogSubject;
	readonly subscribe: (listener: () => void) => () => void;
	readonly snapshot: () => LogSnapshot;
	/** Reconnects every stream with another source (undefined: both), keeping the lines already buffered. */
	readonly setSource: (source: LogSource | undefined) => void;
	readonly close: () => void;
};

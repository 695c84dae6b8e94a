/** Where a log line comes from: the container's stdout/stderr, or the host's lifecycle log. */
export type LogSource = 'container' | 'system';

/** What a log stream follows: a pod, or one worker of a serverless endpoint. */
export type LogTarget = {readonly kind: 'pod'; readonly podId: string} | {readonly kind: 'worker'; readonly endpointId: string; readonly workerId: string};

/** One line of a pod's or worker's log, as podtop keeps it (the text not yet sanitised: every way out sanitises). */
export type LogLine = {
	/** The service's event id: resuming with it as `Last-Event-ID` gives exactly the lines after this one. */
	readonly id: string;
	/** Epoch ms (the service gives whole seconds). */
	readonly ts: number;
	readonly source: LogSource;
	/** The line's text, cut to a bounded length (`truncated` says so). */
	readonly line: string;
	/** The event's `data` was not the JSON the spec gives: `line` holds it raw. */
	readonly raw?: boolean;
	readonly truncated?: boolean;
};

/** What to ask a log stream for. `lastEventId` wins over `tail` and `since`, as the service says. */
export type LogQuery = {
	/** Lines of backlog, 0–5,000 (0: live only). */
	readonly tail?: number;
	/** Epoch ms. */
	readonly since?: number;
	/** Omitted: both. */
	readonly source?: LogSource;
	readonly lastEventId?: string;
};

/** A followed stream's state, shown to the user. */
export type LogStreamState = 'connecting' | 'live' | 'reconnecting' | 'ended' | 'gone' | 'failed';

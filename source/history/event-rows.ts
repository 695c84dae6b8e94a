import type {TrackedJob} from '../store/types.js';
import type {HistoryEventType, SeriesKind} from './history-types.js';

/** An event as written: what the timeline holds. */
export type EventRow = {
	/** When it happened, when that is not the moment it is written (a write read from the audit log). */
	readonly at?: number;
	readonly type: HistoryEventType;
	readonly kind?: SeriesKind;
	readonly subject?: string;
	readonly name?: string;
	/** Ties events of one thing together: an alert's id (firing and resolved), a job's key. */
	readonly ref?: string;
	readonly data: Readonly<Record<string, unknown>>;
};

/** A tracked job's status as a timeline event: its times, and the start of its error. */
export function jobEvent(job: TrackedJob, endpointName: string): EventRow {
	return {
		type: 'job',
		kind: 'endpoint',
		subject: job.endpointId,
		name: endpointName,
		ref: job.key,
		data: {
			id: job.id,
			status: job.status,
			...(job.delayTime === undefined ? {} : {delayTime: job.delayTime}),
			...(job.executionTime === undefined ? {} : {executionTime: job.executionTime}),
			...(job.error === undefined ? {} : {error: job.error.slice(0, 500)}),
		},
	};
}

/** The fields of an audit line (engine/audit-log.ts) the timeline keeps: never the input, never the key. */
export type WriteFields = {
	readonly time?: unknown;
	readonly operation?: unknown;
	readonly target?: unknown;
	readonly outcome?: unknown;
	readonly durationMs?: unknown;
	readonly error?: unknown;
	readonly count?: unknown;
	readonly summary?: unknown;
};

/** The write that is a whole load run (`podtop load`): its audit line becomes a `load` event. */
export const loadOperation = 'endpoint.load';

/** A write (an audit line's fields) as a timeline event; undefined when it is not one. */
export function writeEvent(entry: WriteFields): (EventRow & {readonly at: number}) | undefined {
	if (typeof entry.operation !== 'string' || typeof entry.time !== 'string') {
		return undefined;
	}

	const at = Date.parse(entry.time);
	const target = typeof entry.target === 'object' && entry.target !== null ? (entry.target as Record<string, unknown>) : {};
	const subject = [target.endpointId, target.podId, target.gpuTypeId].find((value): value is string => typeof value === 'string');
	const kind =
		typeof target.endpointId === 'string' ? 'endpoint' : typeof target.podId === 'string' ? 'pod' : typeof target.gpuTypeId === 'string' ? 'gpu' : undefined;
	return Number.isNaN(at)
		? undefined
		: {
				at,
				type: entry.operation === loadOperation ? 'load' : 'write',
				kind,
				subject,
				ref: entry.operation,
				data: {
					operation: entry.operation,
					target,
					outcome: entry.outcome,
					durationMs: entry.durationMs,
					...(entry.error === undefined ? {} : {error: entry.error}),
					...(typeof entry.count === 'number' ? {count: entry.count} : {}),
					...(typeof entry.summary === 'object' && entry.summary !== null ? {summary: entry.summary} : {}),
				},
			};
}

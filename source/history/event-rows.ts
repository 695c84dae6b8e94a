import type {TrackedJob} from '../store/types.js';
import type {AuditWrite} from './audit-record.js';
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

/** The write that is a whole load run (`podtop load`): its audit line becomes a `load` event. */
export const loadOperation = 'endpoint.load';

/** A write (an audit record's fields) as a timeline event; undefined when its time is none. */
export function writeEvent(entry: AuditWrite): (EventRow & {readonly at: number}) | undefined {
	const at = Date.parse(entry.time);
	const {target} = entry;
	const subject = target.endpointId ?? target.podId ?? target.gpuTypeId;
	const kind = target.endpointId === undefined ? (target.podId === undefined ? (target.gpuTypeId === undefined ? undefined : 'gpu') : 'pod') : 'endpoint';
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
					...(entry.count === undefined ? {} : {count: entry.count}),
					...(entry.summary === undefined ? {} : {summary: entry.summary}),
				},
			};
}

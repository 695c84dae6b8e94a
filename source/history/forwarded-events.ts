import {maxRecordEvents} from '../api/agent-protocol.js';
import {auditOutcomes} from './audit-record.js';
import {writeEvent, type EventRow} from './event-rows.js';

/** How far from the agent's clock a forwarded event may be: clients forward at once, on the same host. */
const pastMs = 60 * 60_000;
const futureMs = 60_000;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown, max: number): string | undefined => (typeof value === 'string' && value.length > 0 && value.length <= max ? value : undefined);
const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined);
const ifSet = <T>(name: string, value: T | undefined) => (value === undefined ? {} : {[name]: value});

/** A job event off the wire, rebuilt from its known fields only. */
function jobFrom(event: Record<string, unknown>): Omit<EventRow, 'at'> | undefined {
	const data = isRecord(event.data) ? event.data : {};
	const subject = text(event.subject, 256);
	const id = text(data.id, 256);
	const status = text(data.status, 32);
	if (!subject || !id || !status || !/^[A-Z_]+$/.test(status)) {
		return undefined;
	}

	return {
		type: 'job',
		kind: 'endpoint',
		subject,
		name: text(event.name, 256) ?? subject,
		ref: text(event.ref, 600) ?? `${subject}:${id}`,
		data: {
			id,
			status,
			...ifSet('delayTime', count(data.delayTime)),
			...ifSet('executionTime', count(data.executionTime)),
			...ifSet('error', typeof data.error === 'string' ? data.error.slice(0, 500) : undefined),
		},
	};
}

/** A write event off the wire, rebuilt from its known fields only: the target's names are a few short strings. */
function writeFrom(event: Record<string, unknown>): Omit<EventRow, 'at'> | undefined {
	const data = isRecord(event.data) ? event.data : {};
	const operation = text(data.operation, 64);
	const targetIn = isRecord(data.target) ? Object.entries(data.target) : [];
	const outcome = auditOutcomes.find(known => known === data.outcome);
	if (!operation || !/^[\w.-]+$/.test(operation) || targetIn.length > 8 || outcome === undefined) {
		return undefined;
	}

	const target: Record<string, string> = {};
	for (const [name, value] of targetIn) {
		const given = text(value, 256);
		if (!/^\w{1,32}$/.test(name) || given === undefined) {
			return undefined;
		}

		target[name] = given;
	}

	const row = writeEvent({time: new Date(0).toISOString(), operation, target, outcome, durationMs: count(data.durationMs) ?? 0});
	return row && {...row, data: {...row.data, ...ifSet('error', typeof data.error === 'string' ? data.error.slice(0, 500) : undefined)}};
}

/**
What an attached client forwards for the agent's timeline (its tracked jobs, its writes when the
agent cannot read its audit log), checked and rebuilt field by field: only `job` and `write`
events, of a time near now, strings short, at most `maxRecordEvents` a line. Each is marked as a
client's (`data.source`). Never trusted for anything but the timeline.
*/
export function acceptForwardedEvents(events: unknown, now: number): {readonly events: EventRow[]; readonly refused: number} {
	if (!Array.isArray(events)) {
		return {events: [], refused: 1};
	}

	const accepted: EventRow[] = [];
	for (const event of events.slice(0, maxRecordEvents)) {
		const at = isRecord(event) ? count(event.at) : undefined;
		const row =
			!isRecord(event) || at === undefined || at < now - pastMs || at > now + futureMs
				? undefined
				: event.type === 'job'
					? jobFrom(event)
					: event.type === 'write'
						? writeFrom(event)
						: undefined;
		if (row) {
			accepted.push({...row, at, data: {...row.data, source: 'client'}});
		}
	}

	return {events: accepted, refused: events.length - accepted.length};
}

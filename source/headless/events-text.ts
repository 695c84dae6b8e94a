import {formatMillis} from '../format/duration.js';
import {formatMoment, sameDay} from '../format/moment-text.js';
import {textTable} from '../format/text-table.js';
import type {HistoryEvent} from '../history/history-types.js';

const text = (value: unknown): string => (typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value));
const millis = (label: string, value: unknown) => (typeof value === 'number' ? ` ${label} ${formatMillis(value)}` : '');
const error = (value: unknown) => (value === undefined || value === null ? '' : `: ${text(value)}`);

const times = (label: string, value: unknown) => {
	const {p50, p95, p99} = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
	return typeof p50 === 'number' ? ` ${label} p50 ${formatMillis(p50)} p95 ${formatMillis(p95 as number)} p99 ${formatMillis(p99 as number)}` : '';
};

/** A load run: its jobs and how they ended, its total time's percentiles, cold starts; or why it did not run. */
function loadEventSummary(data: Readonly<Record<string, unknown>>): string {
	const summary = (typeof data.summary === 'object' && data.summary !== null ? data.summary : undefined) as Record<string, unknown> | undefined;
	if (!summary) {
		return `load ${text(data.outcome)}${error(data.error)}`;
	}

	const failed = Number(summary.failed ?? 0) + Number(summary.timedOut ?? 0);
	return `${text(summary.sent)} jobs at ${text(summary.rate)}/s: ${text(summary.completed)} done, ${failed} failed${times('total', summary.total)}, ${text(summary.coldStarts)} cold starts`;
}

const list = (value: unknown): Array<Record<string, unknown>> =>
	Array.isArray(value) ? value.filter((each): each is Record<string, unknown> => typeof each === 'object' && each !== null) : [];

/** A diagnosis: its findings with the figures read (`crash loop: 2 workers restarted 5 times …`), its word alone (`stuck`), or that it cleared. */
function diagnosisSummary(data: Readonly<Record<string, unknown>>): string {
	if (data.cleared === true) {
		return 'cleared';
	}

	// Each finding's text starts with its word (`crash loop: …`); `stuck` has none.
	const findings = list(data.findings).map(finding => text(finding.text));
	return findings.length > 0 ? findings.join('; ') : text(data.word);
}

/** A worker list: what changed (`w1 RUNNING → UNHEALTHY, w2 new, w3 gone (IDLE)`) and how many there are. */
function workersSummary(data: Readonly<Record<string, unknown>>): string {
	if (data.workers === null) {
		return 'workers no longer read';
	}

	const changes = list(data.changes).map(({id, from, to, restarted}) =>
		to === undefined
			? `${text(id)} gone (${text(from)})`
			: from === undefined
				? `${text(id)} new ${text(to)}`
				: from === to
					? `${text(id)} ${text(to)}${restarted === true ? ' restarted' : ''}`
					: `${text(id)} ${text(from)} → ${text(to)}${restarted === true ? ', restarted' : ''}`,
	);
	const count = list(data.workers).length + (typeof data.more === 'number' ? data.more : 0);
	return `${count} ${count === 1 ? 'worker' : 'workers'}${changes.length > 0 ? `: ${changes.join(', ')}` : ''}`;
}

/** What an event says, in a few words (its type and subject have columns of their own). */
export function eventSummary({type, data}: HistoryEvent): string {
	switch (type) {
		case 'alert.firing': {
			return `${text(data.rule)}: ${text(data.message)}`;
		}

		case 'alert.resolved': {
			return `${text(data.rule)} resolved`;
		}

		case 'write': {
			return `${text(data.operation)} ${text(data.outcome)}${millis('in', data.durationMs)}${error(data.error)}`;
		}

		case 'job': {
			return `${text(data.id)} ${text(data.status)}${millis('delay', data.delayTime)}${millis('execution', data.executionTime)}${error(data.error)}`;
		}

		case 'load': {
			return loadEventSummary(data);
		}

		case 'probe': {
			const cold = data.cold === true ? ' cold' : '';
			return `${text(data.outcome)}${millis('delay', data.delayMs)}${millis('execution', data.executionMs)}${cold}${error(data.error)}`;
		}

		case 'diagnosis': {
			return diagnosisSummary(data);
		}

		case 'workers': {
			return workersSummary(data);
		}

		case 'status': {
			return `${text(data.from) || '?'} → ${text(data.to) || '?'}`;
		}

		case 'created':
		case 'deleted': {
			return '';
		}

		default: {
			return text(data.reason ?? (Object.keys(data).length > 0 ? data : ''));
		}
	}
}

/** Whom an event is about: `endpoint llama (ep1)`, the alert's subject, or nothing (the recorder's own). */
export function eventSubject({kind, subject, name}: HistoryEvent): string {
	const who = name && subject && name !== subject ? `${name} (${subject})` : (subject ?? name ?? '');
	return kind && who ? `${kind} ${who}` : who;
}

/** The timeline as a table for people, oldest first; every cell passes the sanitiser (textTable). */
export function eventsTable(events: readonly HistoryEvent[], range: {readonly from: number; readonly to: number}): string {
	const oneDay = sameDay(range.from, range.to);
	return `${textTable(
		['TIME', 'TYPE', 'SUBJECT', 'WHAT'],
		events.map(event => [formatMoment(event.at, {dayShown: !oneDay}), event.type, eventSubject(event), eventSummary(event)]),
	)}\n`;
}

/** One event as a JSON line's object (print with inertJson): its time as ISO, what the type carries under `data`. */
export function eventDocument({at, type, kind, subject, name, data}: HistoryEvent) {
	return {at: new Date(at).toISOString(), type, kind: kind ?? null, subject: subject ?? null, name: name ?? null, data};
}

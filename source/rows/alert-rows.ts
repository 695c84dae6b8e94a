import {formatAge} from '../format/duration.js';
import {formatMoment, sameDay} from '../format/moment-text.js';
import {sanitizeLine} from '../format/sanitize.js';
import type {PodtopState} from '../store/state.js';
import type {FiringAlert} from '../store/types.js';
import type {Column, Row} from './row.js';

/** What an alert fires on, as the dashboard can open it: an endpoint, a pod, a GPU type; `account` (or a thing gone) opens nothing. */
export type AlertSubject = {readonly type: 'endpoint' | 'pod' | 'gpu'; readonly id: string} | undefined;

/** The alerts firing now as `:alerts` lists them: the newest firing first. */
export function firingInOrder(alerts: readonly FiringAlert[]): FiringAlert[] {
	return alerts.toSorted((a, b) => b.firedAt - a.firedAt || a.id.localeCompare(b.id));
}

/** The thing an alert is about, found among the account's endpoints, pods and GPU types by its id. */
export function alertSubject(state: Pick<PodtopState, 'endpoints' | 'pods' | 'gpus'>, alert: FiringAlert): AlertSubject {
	const id = alert.subject;
	if (state.endpoints.byId[id]) {
		return {type: 'endpoint', id};
	}

	if (state.pods.byId[id]) {
		return {type: 'pod', id};
	}

	return state.gpus.byId[id] ? {type: 'gpu', id} : undefined;
}

export const alertColumns: readonly Column[] = [
	{title: 'SINCE', width: 14},
	{title: 'FOR', width: 8, align: 'right'},
	{title: 'RULE', width: 24},
	{title: 'ON', width: 8, legend: 'what the alert is about: an endpoint, a pod, a GPU type, or the account (Enter opens it)'},
	{title: 'NAME', width: 32},
	{title: 'WHAT', width: 60, flex: true},
];

/** One row per firing alert: since when its condition holds, for how long, the rule, the thing, what holds in numbers. */
export function alertRows(state: Pick<PodtopState, 'alerts' | 'endpoints' | 'pods' | 'gpus'>, now: number): Row[] {
	const alerts = firingInOrder(state.alerts);
	const oneDay = alerts.every(alert => sameDay(alert.since, now));
	return alerts.map(alert => {
		const subject = alertSubject(state, alert);
		return {
			key: alert.id,
			tone: 'bad',
			cells: [
				formatMoment(alert.since, {dayShown: !oneDay}),
				formatAge(alert.since, now),
				sanitizeLine(alert.rule),
				subject?.type ?? (alert.subject === 'account' ? 'account' : 'gone'),
				sanitizeLine(alert.subjectName || alert.subject),
				sanitizeLine(alert.message),
			],
		};
	});
}

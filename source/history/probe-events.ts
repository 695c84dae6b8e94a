import {probeOf} from '../store/probe-of.js';
import type {ProbeSample} from '../store/types.js';
import type {EventRow} from './event-rows.js';
import type {HistoryEvent} from './history-types.js';

const ifSet = <T>(name: string, value: T | undefined) => (value === undefined ? {} : {[name]: value});

/** A probe as a timeline event (at the moment it was sent): the endpoint, its times, cold or not, how it ended. */
export function probeEvent(endpointId: string, endpointName: string, rule: string, probe: ProbeSample): EventRow {
	return {
		at: probe.at,
		type: 'probe',
		kind: 'endpoint',
		subject: endpointId,
		name: endpointName,
		ref: `probe:${endpointId}`,
		data: {
			rule,
			outcome: probe.outcome,
			...ifSet('jobId', probe.jobId),
			...ifSet('delayMs', probe.delayMs),
			...ifSet('executionMs', probe.executionMs),
			...ifSet('cold', probe.cold),
			...ifSet('error', probe.error),
		},
	};
}

/** A recorded `probe` event as the store's probe; undefined for any other event. */
export function probeFromEvent(event: HistoryEvent): {readonly endpointId: string; readonly probe: ProbeSample} | undefined {
	return event.type === 'probe' ? probeOf(event.at, event.subject, event.data) : undefined;
}

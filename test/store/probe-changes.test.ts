import {describe, expect, test} from 'vitest';
import {applyAgentEvents} from '../../source/poll/apply-agent-events.js';
import {changeEvents} from '../../source/store/change-events.js';
import {createPodtopStore} from '../../source/store/create-store.js';

const newStore = () => createPodtopStore({mode: 'live', apiHost: 'x', keyFingerprint: '••••1234'});

describe('probes as change events (watch --jsonl, the agent feed)', () => {
	test('each probe that reaches the store is one probe event, once; an attached client takes it back field by field', () => {
		const agent = newStore();
		const lines: Array<Record<string, unknown> & {type: string}> = [];
		agent.store.subscribe((next, previous) => {
			lines.push(...changeEvents(previous, next, '2026-11-24T06:00:00.000Z'));
		});
		agent.writes.addProbes([{endpointId: 'ep1', probe: {at: 1000, jobId: 'a', delayMs: 120, executionMs: 900, cold: false, outcome: 'ok'}}]);
		agent.writes.addProbes([
			{endpointId: 'ep1', probe: {at: 3000, jobId: 'b', delayMs: 9000, executionMs: 950, cold: true, outcome: 'ok'}},
			// The same probe again (read back from history): nothing new.
			{endpointId: 'ep1', probe: {at: 1000, jobId: 'a', delayMs: 120, executionMs: 900, cold: false, outcome: 'ok'}},
		]);
		expect(lines).toEqual([
			{
				type: 'probe',
				at: '2026-11-24T06:00:00.000Z',
				endpointId: 'ep1',
				probe: {at: 1000, sentAt: '1970-01-01T00:00:01.000Z', jobId: 'a', delayMs: 120, executionMs: 900, cold: false, outcome: 'ok'},
			},
			{
				type: 'probe',
				at: '2026-11-24T06:00:00.000Z',
				endpointId: 'ep1',
				probe: {at: 3000, sentAt: '1970-01-01T00:00:03.000Z', jobId: 'b', delayMs: 9000, executionMs: 950, cold: true, outcome: 'ok'},
			},
		]);

		const client = newStore();
		const hostile = {type: 'probe', endpointId: 'ep1', probe: {at: 5000, outcome: 'ok', delayMs: -5, executionMs: 'soon', cold: 'yes', extra: 'x'}};
		const bad = [
			{type: 'probe', endpointId: 'ep1', probe: {at: 6000, outcome: 'exploded'}},
			{type: 'probe', probe: {at: 7000, outcome: 'ok'}},
		];
		applyAgentEvents([...structuredClone(lines), hostile, ...bad], client.store, client.writes);
		const {probes} = client.store.getState();
		expect(probes.configured).toBe(true);
		expect(probes.byEndpoint.ep1).toEqual([
			{at: 1000, jobId: 'a', delayMs: 120, executionMs: 900, cold: false, outcome: 'ok'},
			{at: 3000, jobId: 'b', delayMs: 9000, executionMs: 950, cold: true, outcome: 'ok'},
			// Only what is of a known field and type is kept.
			{at: 5000, outcome: 'ok'},
		]);
	});
});

import {describe, expect, test} from 'vitest';
import {parseAlertRules} from '../../source/config/alert-rules.js';
import {createAlertEvaluator, type AlertChange} from '../../source/poll/alert-loop.js';
import {createPodtopStore} from '../../source/store/create-store.js';

const minute = 60_000;
/** 20 November 2026, 06:00 UTC: six hours into the day the service bills. */
const start = Date.UTC(2026, 10, 20, 6);

type PodAt = {
	readonly id: string;
	readonly util: number;
	readonly costPerHr: number; /** When it last started (its uptime as polled runs from there); 8 h before the test's start unless said. */
	readonly startedAt?: number;
	readonly status?: string;
};

function fixture(rulesText: string) {
	const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'x', keyFingerprint: '••••1234'});
	const changes: AlertChange[] = [];
	const evaluate = createAlertEvaluator(parseAlertRules(rulesText, 'alerts.toml').rules, change => changes.push(change));
	/** A poll of the pods at `at` (the held clock), then a look of the evaluator at the same moment. */
	const poll = (at: number, pods: readonly PodAt[]) => {
		writes.setPods(
			pods.map(({id, util, costPerHr, startedAt = start - 8 * 60 * minute, status = 'RUNNING'}) => ({
				id,
				name: `${id}-box`,
				desiredStatus: status,
				costPerHr,
				runtime:
					status === 'RUNNING'
						? {
								uptimeInSeconds: (at - startedAt) / 1000,
								gpus: [
									{id: 'g0', gpuUtilPercent: util},
									{id: 'g1', gpuUtilPercent: util},
								],
							}
						: null,
			})),
			at,
		);
		return evaluate(store.getState(), at).map(alert => `${alert.rule}@${alert.subjectName}: ${alert.message}`);
	};

	return {poll, changes};
}

describe('the idle-pod alert', () => {
	test('a running pod under 5 % GPU for 30 minutes that costs over $0.50/h fires, with its cost so far today; a cheap one never does', () => {
		const {poll, changes} = fixture('[[rule]]\nname = "idle"\nkind = "idle-pod"\n');
		const pods = [
			{id: 'a6000', util: 1, costPerHr: 1.5},
			{id: 'cheap', util: 0, costPerHr: 0.5},
		];
		for (let at = start; at < start + 30 * minute; at += 5 * minute) {
			expect(poll(at, pods), `${(at - start) / minute} min`).toEqual([]);
		}

		// Half an hour idle; it has run all of today's 6 h 30 min (uptime 8.5 h): $9.75 at $1.50/h.
		expect(poll(start + 30 * minute, pods)).toEqual(['idle@a6000-box: GPU 1 % (under 5 %) at $1.50/h, ~$9.75 so far today']);
		expect(changes.map(change => `${change.state} ${change.alert.subject} at ${(change.at - start) / minute}`)).toEqual(['firing a6000 at 30']);
	});

	test('a poll that finds it busy starts the half hour over; so does a stop, which resolves it', () => {
		const {poll, changes} = fixture('[[rule]]\nname = "idle"\nkind = "idle-pod"\n');
		expect(poll(start, [{id: 'p', util: 2, costPerHr: 2}])).toEqual([]);
		expect(poll(start + 20 * minute, [{id: 'p', util: 60, costPerHr: 2}])).toEqual([]);
		expect(poll(start + 21 * minute, [{id: 'p', util: 3, costPerHr: 2}])).toEqual([]);
		expect(poll(start + 50 * minute, [{id: 'p', util: 3, costPerHr: 2}])).toEqual([]);
		expect(poll(start + 51 * minute, [{id: 'p', util: 3, costPerHr: 2}])).toHaveLength(1);
		// Stopped: resolved; running idle again, it waits its half hour anew.
		expect(poll(start + 52 * minute, [{id: 'p', util: 0, costPerHr: 2, status: 'EXITED'}])).toEqual([]);
		const restarted = {id: 'p', util: 0, costPerHr: 2, startedAt: start + 53 * minute};
		expect(poll(start + 53 * minute, [restarted])).toEqual([]);
		expect(poll(start + 82 * minute, [restarted])).toEqual([]);
		// It has run 30 minutes since the restart: $1.00 at $2/h.
		expect(poll(start + 83 * minute, [restarted])).toEqual(['idle@p-box: GPU 0 % (under 5 %) at $2.00/h, ~$1.00 so far today']);
		expect(changes.map(change => `${change.state} at ${(change.at - start) / minute}`)).toEqual(['firing at 51', 'resolved at 52', 'firing at 83']);
	});

	test('the line, the time and the price are the rule’s to set; a pod that ran since yesterday counts only today', () => {
		const {poll} = fixture('[[rule]]\nname = "idle"\nkind = "idle-pod"\nunder = 20\nfor = "10m"\ncosting = 3\npod = "big-*"\n');
		const pods = [
			{id: 'big-1', util: 15, costPerHr: 4, startedAt: start - 30 * 60 * minute},
			{id: 'big-2', util: 15, costPerHr: 2.5},
			{id: 'small', util: 0, costPerHr: 9},
		];
		expect(poll(start, pods)).toEqual([]);
		// 6 h 10 min of today at $4/h, though it has run for 30 h.
		expect(poll(start + 10 * minute, pods)).toEqual(['idle@big-1-box: GPU 15 % (under 20 %) at $4.00/h, ~$24.67 so far today']);
	});
});

import {describe, expect, test} from 'vitest';
import {parseAlertRules} from '../../source/config/alert-rules.js';
import {createAlertEvaluator} from '../../source/poll/alert-loop.js';
import {createPodtopStore} from '../../source/store/create-store.js';

const health = (inQueue: number, completed: number) => ({
	jobs: {completed, failed: 0, inProgress: 0, inQueue, retried: 0},
	workers: {idle: 0, initializing: 0, ready: 0, running: 0, throttled: 1, unhealthy: 0},
});

describe('the crash-loop and stuck-queue alerts', () => {
	test('fire through the alert path on the diagnosis: a worker seen restarting, and jobs waiting unserved over the rule’s time', () => {
		const rules = parseAlertRules(
			['[[rule]]', 'kind = "crash-loop"', 'endpoint = "llava*"', '', '[[rule]]', 'name = "stuck"', 'kind = "stuck-queue"', 'for = "2m"'].join('\n'),
			'alerts.toml',
		);
		expect(rules.rules).toEqual([
			{name: 'crash-loop', kind: 'crash-loop', endpoint: 'llava*'},
			{name: 'stuck', kind: 'stuck-queue', forMs: 120_000, endpoint: '*'},
		]);
		const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'h', keyFingerprint: 'f'});
		writes.setEndpoints([{id: 'ep1', name: 'llava', workersMax: 2}], 0);
		const evaluate = createAlertEvaluator(rules.rules);
		const worker = {id: 'w1', status: 'THROTTLED', isStale: false, uptimeSeconds: 40, startedAt: 1000};
		writes.setHealth('ep1', health(3, 10), 0);
		writes.setWorkers('ep1', {endpointId: 'ep1', workers: [worker], readAt: 0});
		expect(evaluate(store.getState(), 60_000)).toEqual([]);
		writes.setHealth('ep1', health(4, 10), 60_000);
		writes.setWorkers('ep1', {endpointId: 'ep1', workers: [{...worker, uptimeSeconds: 2, startedAt: 90_000}], readAt: 60_000});
		const crash = evaluate(store.getState(), 61_000);
		expect(crash.map(alert => [alert.rule, alert.subject])).toEqual([['crash-loop', 'ep1']]);
		expect(crash[0]!.message).toMatch(/^crash loop: 1 worker restarted 1 time \(uptime reset\)/);
		const both = evaluate(store.getState(), 130_000);
		expect(both.map(alert => alert.rule)).toEqual(['crash-loop', 'stuck']);
		expect(both[1]!.message).toBe('4 jobs wait, none served for 2m10s (over 2m00s): crash loop');
		writes.setHealth('ep1', health(0, 14), 140_000);
		expect(evaluate(store.getState(), 141_000).map(alert => alert.rule)).toEqual(['crash-loop']);
	});
});

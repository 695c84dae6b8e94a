import {describe, expect, test} from 'vitest';
import type {Health} from '../../source/api/job-types.js';
import {parseAlertRules} from '../../source/config/alert-rules.js';
import {createAlertEvaluator, type AlertChange} from '../../source/poll/alert-loop.js';
import {createPodtopStore} from '../../source/store/create-store.js';

const health = (inQueue: number, completed: number, failed: number, workers: Partial<Health['workers']> = {}): Health => ({
	jobs: {completed, failed, inProgress: 0, inQueue, retried: 0},
	workers: {idle: 0, initializing: 0, ready: 0, running: 1, throttled: 0, unhealthy: 0, ...workers},
});

function fixture(rulesText: string) {
	const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'x', keyFingerprint: '••••1234'});
	writes.setEndpoints(
		[
			{id: 'ep-llama', name: 'llama-3-8b'},
			{id: 'ep-sdxl', name: 'sdxl'},
		],
		0,
	);
	const changes: AlertChange[] = [];
	const evaluate = createAlertEvaluator(parseAlertRules(rulesText, 'alerts.toml').rules, change => changes.push(change));
	const look = (at: number) => evaluate(store.getState(), at).map(alert => `${alert.rule}@${alert.subject}: ${alert.message}`);
	return {writes, changes, look};
}

describe('alert rules against store states', () => {
	test('queue over N fires only after holding for T, on the endpoints it names, and resolves when it drains', () => {
		const {writes, changes, look} = fixture('[[rule]]\nname = "backlog"\nkind = "queue"\nendpoint = "llama-*"\nover = 50\nfor = "2m"\n');
		writes.setHealth('ep-llama', health(80, 0, 0), 1000);
		writes.setHealth('ep-sdxl', health(500, 0, 0), 1000);
		expect(look(1000)).toEqual([]);
		expect(look(100_000)).toEqual([]);
		expect(look(121_000)).toEqual(['backlog@ep-llama: 80 jobs in queue (over 50)']);
		writes.setHealth('ep-llama', health(63, 0, 0), 130_000);
		expect(look(130_000)).toEqual(['backlog@ep-llama: 63 jobs in queue (over 50)']);
		writes.setHealth('ep-llama', health(10, 0, 0), 140_000);
		expect(look(140_000)).toEqual([]);
		expect(changes.map(change => `${change.state} ${change.alert.subject} at ${change.at}`)).toEqual([
			'firing ep-llama at 121000',
			'resolved ep-llama at 140000',
		]);
		// A dip below the line starts the clock again.
		writes.setHealth('ep-llama', health(70, 0, 0), 150_000);
		expect(look(150_000)).toEqual([]);
		expect(look(269_000)).toEqual([]);
		expect(look(270_000)).toHaveLength(1);
	});

	test('failure rate over X % in a window, from the health counters', () => {
		const {writes, look} = fixture('[[rule]]\nname = "failing"\nkind = "failure-rate"\nover = 5\nwindow = "10m"\n');
		writes.setHealth('ep-sdxl', health(0, 1000, 10), 0);
		writes.setHealth('ep-sdxl', health(0, 1100, 12), 60_000);
		expect(look(60_000)).toEqual([]); // 2 of 102 failed: 2 %
		writes.setHealth('ep-sdxl', health(0, 1190, 30), 120_000);
		expect(look(120_000)).toEqual(['failing@ep-sdxl: 9.5 % of jobs failed in 10m00s (over 5 %)']); // 20 failed of 210 finished since the first sample
		// Ten minutes later the window holds only the quiet part.
		writes.setHealth('ep-sdxl', health(0, 1500, 31), 700_000);
		writes.setHealth('ep-sdxl', health(0, 1800, 32), 760_000);
		expect(look(760_000)).toEqual([]);
	});

	test('unhealthy or throttled workers, low GPU stock, an idle pod for 30 minutes, spend per hour', () => {
		const {writes, look} = fixture(
			[
				'[[rule]]\nkind = "workers"',
				'[[rule]]\nname = "stock"\nkind = "gpu-stock"\ngpu = "*H100*"',
				'[[rule]]\nname = "idle"\nkind = "idle-pod"',
				'[[rule]]\nname = "spend"\nkind = "spend"\nover = 3',
			].join('\n'),
		);
		writes.setHealth('ep-llama', health(0, 0, 0, {unhealthy: 2, throttled: 1}), 0);
		writes.setGpuTypes(
			[
				{id: 'NVIDIA H100 80GB HBM3', displayName: 'H100 SXM', lowestPrice: {stockStatus: 'Low'}},
				{id: 'NVIDIA A40', displayName: 'A40', lowestPrice: {stockStatus: 'None'}},
			],
			0,
		);
		const pod = (id: string, util: number, costPerHr: number, desiredStatus = 'RUNNING', volumeInGb?: number) => ({
			id,
			name: id,
			desiredStatus,
			costPerHr,
			volumeInGb,
			runtime: {gpus: [{id: 'g', gpuUtilPercent: util}]},
		});
		// Spend is what the pods cost now: the running ones' price, and a stopped one's volume (365 GB at $0.20/GB/month, 730 h),
		// never a stopped pod's running price (the one of unknown volume adds nothing).
		writes.setPods([pod('busy', 90, 2), pod('idle', 1, 1.5), pod('stopped', 0, 9, 'EXITED'), pod('parked', 0, 9, 'EXITED', 365)], 0);
		expect(look(0)).toEqual([
			'workers@ep-llama: 2 unhealthy, 1 throttled workers',
			'stock@NVIDIA H100 80GB HBM3: stock Low',
			"spend@account: spending $3.60/h (over $3.00/h), ~$0.10/h of it stopped pods' volumes",
		]);
		expect(look(30 * 60_000)).toContain('idle@idle: GPU 1 % (under 5 %) at $1.50/h');
		writes.setPods([pod('busy', 90, 2), pod('idle', 40, 1.5)], 30 * 60_000 + 1);
		expect(look(30 * 60_000 + 1).some(alert => alert.startsWith('idle@'))).toBe(false);
	});

	test('latency: the P95 of the probes in the window over the line, held for its time, on the endpoints it names', () => {
		const {writes, changes, look} = fixture('[[rule]]\nname = "slow"\nkind = "latency"\nendpoint = "llama-*"\nover = "30s"\nwindow = "10m"\nfor = "1m"\n');
		const probe = (endpointId: string, at: number, delayMs: number, executionMs: number, outcome: 'ok' | 'failed' = 'ok') => ({
			endpointId,
			probe: {at, jobId: `j${at}`, delayMs, executionMs, cold: delayMs > 10_000, outcome},
		});
		// Nineteen fast probes and one slow: the P95 (nearest rank, the 19th of 20) is still fast.
		writes.addProbes(Array.from({length: 20}, (_, index) => probe('ep-llama', index * 1000, 1000, index === 19 ? 60_000 : 2000)));
		writes.addProbes([probe('ep-sdxl', 1000, 90_000, 90_000)]);
		expect(look(20_000)).toEqual([]);
		// Two slow ones of 21 (and a failed one, which has no time): the 20th is slow.
		writes.addProbes([probe('ep-llama', 21_000, 20_000, 25_000), probe('ep-llama', 22_000, 0, 0, 'failed')]);
		expect(look(22_000)).toEqual([]);
		expect(look(82_000)).toEqual(['slow@ep-llama: P95 probe time 45.0 s over 21 probes in 10m00s (over 30.0 s)']);
		// Ten minutes on, the slow ones have left the window.
		expect(look(22_000 + 600_000)).toEqual([]);
		expect(changes.map(change => `${change.state} ${change.alert.subject}`)).toEqual(['firing ep-llama', 'resolved ep-llama']);
	});
});

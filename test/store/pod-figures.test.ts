import {describe, expect, test} from 'vitest';
import type {PodRecord} from '../../source/model/pod.js';
import {describeCost, formatCostNow, formatCostTotals, podCost, podCostTotals} from '../../source/store/pod-figures.js';

const pod = (desiredStatus: string | undefined, costPerHr: number | undefined, volumeInGb?: number | null): PodRecord => ({
	id: `p-${desiredStatus}-${volumeInGb}`,
	desiredStatus,
	costPerHr,
	volumeInGb,
});

describe('what a pod costs now', () => {
	test("running: its price; stopped: its volume at $0.20/GB/month (730 h), an estimate; never a stopped pod's running price", () => {
		expect(podCost(pod('RUNNING', 3.99, 50))).toMatchObject({now: 3.99, estimated: false, running: true, runningPerHr: 3.99});
		const stopped = podCost(pod('EXITED', 3.99, 50));
		expect(stopped).toMatchObject({estimated: true, running: false, runningPerHr: 3.99, volumeInGb: 50});
		expect(stopped.now).toBeCloseTo(0.013_698_63, 8);
		expect(formatCostNow(stopped)).toBe('~$0.014/h');
		expect(formatCostNow(podCost(pod('RUNNING', 3.99, 50)))).toBe('$3.99/h');
	});

	test('a 0-GB volume costs $0; an unknown volume or status is unknown (–), not the running price', () => {
		expect(podCost(pod('EXITED', 3.99, 0))).toMatchObject({now: 0, estimated: false});
		expect(formatCostNow(podCost(pod('EXITED', 3.99, 0)))).toBe('$0.00/h');
		for (const record of [pod('EXITED', 3.99), pod('EXITED', 3.99, null), pod('PAUSED', 3.99, 50), pod(undefined, 3.99, 50)]) {
			expect(podCost(record).now).toBeUndefined();
			expect(formatCostNow(podCost(record))).toBe('–');
		}

		expect(podCost(pod('TERMINATED', 3.99, 50)).now).toBe(0);
	});

	test('the details say what it costs now and label the running price', () => {
		expect(describeCost(pod('RUNNING', 3.99, 50))).toBe('$3.99/h now (running)');
		expect(describeCost(pod('EXITED', 3.99, 200))).toBe('~$0.055/h now (stopped: volume 200 GB at $0.20/GB/month, estimated) · $3.99/h running');
		expect(describeCost(pod('EXITED', 3.99, 0))).toBe('$0.00/h now (stopped: no volume) · $3.99/h running');
		expect(describeCost(pod('EXITED', 3.99))).toBe('– now (stopped: volume size unknown) · $3.99/h running');
		expect(describeCost(pod('PAUSED\u001B[2J', 3.99, 50))).toBe('– now (status PAUSED␛[2J) · $3.99/h running');
	});

	test('totals: the running pods apart from the stopped ones, with the pods of unknown cost counted', () => {
		const totals = podCostTotals([pod('RUNNING', 3.99, 50), pod('RUNNING', 1.5, 10), pod('EXITED', 9, 365), pod('EXITED', 9)]);
		expect(totals.running).toEqual({perHr: 5.49, pods: 2, unknown: 0, estimated: false});
		expect(totals.stopped).toMatchObject({pods: 2, unknown: 1, estimated: true});
		expect(totals.stopped.perHr).toBeCloseTo(0.1, 10);
		expect(formatCostTotals(totals)).toBe('running $5.49/h · stopped ~$0.10/h (1 unknown)');
		expect(formatCostTotals(podCostTotals([pod('RUNNING', 2, 0)]))).toBe('running $2.00/h');
		expect(formatCostTotals(podCostTotals([]))).toBe('running $0.00/h');
	});
});

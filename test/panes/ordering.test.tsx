import {describe, expect, test} from 'vitest';
import {EndpointDetail} from '../../source/panes/endpoint-detail.js';
import {GpusPane} from '../../source/panes/gpus-pane.js';
import {PodsPane} from '../../source/panes/pods-pane.js';
import {health, renderWith, testStore, tick} from '../helpers/ui-fixture.js';

const names = (frame: string, pattern: RegExp) => frame.split('\n').flatMap(line => line.match(pattern)?.[0] ?? []);

describe('what a user sees in the lists', () => {
	test('names sort naturally: exp-2 before exp-10 before exp-100', async () => {
		const state = testStore();
		state.writes.setPods(
			['exp-100', 'exp-10', 'exp-2', 'exp-1'].map(name => ({
				id: name,
				name,
				desiredStatus: 'RUNNING',
				gpuCount: 1,
				machine: {gpuDisplayName: 'L4'},
				runtime: {gpus: [{gpuUtilPercent: 50}]},
			})),
			0,
		);
		const {lastFrame} = renderWith(state, <PodsPane width={120} height={12} />);
		await tick();
		expect(names(lastFrame()!, /^exp-\d+/)).toEqual(['exp-1', 'exp-2', 'exp-10', 'exp-100']);
	});

	test('pods open attention first (asked to run but not up), then running, then the rest, exited last', async () => {
		const state = testStore();
		const gpu = {gpuCount: 1, machine: {gpuDisplayName: 'L4'}};
		state.writes.setPods(
			[
				{id: 'a', name: 'a-exited', desiredStatus: 'EXITED', ...gpu, runtime: null},
				{id: 'b', name: 'b-running', desiredStatus: 'RUNNING', ...gpu, runtime: {gpus: [{gpuUtilPercent: 90}]}},
				{id: 'c', name: 'c-starting', desiredStatus: 'RUNNING', ...gpu, runtime: null},
				{id: 'd', name: 'd-terminated', desiredStatus: 'TERMINATED', ...gpu, runtime: null},
				{id: 'e', name: 'e-created', desiredStatus: 'CREATED', ...gpu, runtime: null},
			],
			0,
		);
		const {lastFrame} = renderWith(state, <PodsPane width={120} height={12} />);
		await tick();
		const frame = lastFrame()!;
		expect(names(frame, /^[a-e]-\w+/)).toEqual(['c-starting', 'b-running', 'e-created', 'a-exited', 'd-terminated']);
		expect(frame).toMatch(/c-starting +1× L4 +STARTING/);
		expect(frame).toMatch(/STATUS▲/);
	});

	test('columns are sized to their content: short GPU names leave no gap, long ones take the room there is', async () => {
		const state = testStore();
		state.writes.setGpuTypes([{id: 'NVIDIA L4', displayName: 'L4', memoryInGb: 24, securePrice: 0.43, lowestPrice: {stockStatus: 'High'}}], 0);
		const {lastFrame} = renderWith(state, <GpusPane width={120} height={8} />);
		await tick();
		// The name column is as wide as its title ("GPU TYPE"), not a third of the screen.
		expect(lastFrame()).toMatch(/^GPU TYPE▲ VRAM +SECURE/m);
		expect(lastFrame()).toMatch(/^L4 +24G +\$0\.43/m);
		state.writes.setGpuTypes([{id: 'x', displayName: 'NVIDIA GeForce RTX 4090 Founders Edition', memoryInGb: 24, lowestPrice: {stockStatus: 'Low'}}], 1);
		await tick();
		expect(lastFrame()).toMatch(/^NVIDIA GeForce RTX 4090 Founders Edition +24G/m);
	});
});

describe('Endpoint details', () => {
	test('the record, health, sparklines, rates and tracked jobs (newest first, errors inert)', async () => {
		const state = testStore();
		state.writes.setEndpoints(
			[
				{
					id: 'ep1',
					name: 'llama-vllm',
					workersMin: 1,
					workersMax: 5,
					gpuIds: 'ADA_24',
					scalerType: 'QUEUE_DELAY',
					scalerValue: 4,
					idleTimeout: 30,
					locations: 'US',
					flashBootType: 'FLASHBOOT',
					pods: [
						{id: 'w1', desiredStatus: 'RUNNING'},
						{id: 'w2', desiredStatus: 'RUNNING'},
						{id: 'w3', desiredStatus: 'EXITED'},
					],
				},
			],
			0,
		);
		state.writes.setHealth('ep1', health({inQueue: 3}), 0);
		state.writes.setDiscount({discountFactor: 0.85, type: 'ACTIVE_WORKER', expirationDate: '2027-01-01T00:00:00.000Z'});
		state.writes.trackJob('ep1', 'job-old', {at: 1});
		const failed = state.writes.trackJob('ep1', 'job-new', {at: 2});
		state.writes.updateJob(failed, {id: 'job-new', status: 'FAILED', error: 'CUDA out of memory \u001B[31m'}, 3);
		const {lastFrame} = renderWith(state, <EndpointDetail endpointId='ep1' width={120} height={20} />);
		await tick();
		const frame = lastFrame()!;
		expect(frame).toMatch(/llama-vllm \(ep1\) {2}Esc back/);
		expect(frame).toMatch(/pools ADA_24 ×1 · scaler QUEUE_DELAY 4 · idle timeout 30s · workers 1–5 · locations US · FlashBoot/);
		expect(frame).toMatch(/drain \S+ · discount ×0\.85 \(ACTIVE_WORKER, until 2027-01-01\)/);
		expect(frame).toMatch(/workers: running 2 · idle 1 · initializing 1 · throttled 0 · unhealthy 0 · pods 2 RUNNING, 1 EXITED/);
		expect(frame).toMatch(/jobs: queue 3 · in progress 2 · completed 120 · failed 3 · retried 1/);
		expect(frame).toMatch(/Tracked jobs \(2\)/);
		expect(names(frame, /^job-\w+/)).toEqual(['job-new', 'job-old']);
		expect(frame).toMatch(/job-new +FAILED .*CUDA out of memory ␛\[31m/);
		expect(frame).not.toContain('\u001B[31m');
	});
});

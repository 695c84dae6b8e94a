import {expect, test} from 'vitest';
import type {PodRecord, PodSummary} from '../../source/model/pod.js';
import {deepEqual} from '../../source/lib/deep-equal.js';
import {withSummary} from '../../source/store/pod-summary.js';

const full: PodRecord = {
	id: 'p1',
	name: 'trainer',
	imageName: 'example/train:2',
	desiredStatus: 'RUNNING',
	costPerHr: 4.2,
	gpuCount: 2,
	podType: 'ON_DEMAND',
	machine: {gpuDisplayName: 'A100 80GB', location: 'EU-RO-1'},
	runtime: {
		uptimeInSeconds: 600,
		gpus: [
			{id: 'GPU-a', gpuUtilPercent: 90, memoryUtilPercent: 70},
			{id: 'GPU-b', gpuUtilPercent: 80, memoryUtilPercent: 60},
		],
		container: {cpuPercent: 30, memoryPercent: 40},
	},
};

/** What the summary query says of `full` when nothing changed. */
const unchanged: PodSummary = {
	id: 'p1',
	name: 'trainer',
	desiredStatus: 'RUNNING',
	costPerHr: 4.2,
	gpuCount: 2,
	podType: 'ON_DEMAND',
	runtime: {gpus: [{gpuUtilPercent: 90}, {gpuUtilPercent: 80}]},
};

test('a summary that changed nothing merges to a record equal to the last full one', () => {
	const merged = withSummary(full, unchanged);
	expect(deepEqual(merged, full)).toBe(true);
	expect(merged.machine).toBe(full.machine);
});

test("a summary's fields are fresh; GPUs keep their ids and memory figures from the full record", () => {
	const merged = withSummary(full, {...unchanged, runtime: {gpus: [{gpuUtilPercent: 5}, {gpuUtilPercent: 7}]}});
	expect(merged.runtime?.gpus).toEqual([
		{id: 'GPU-a', gpuUtilPercent: 5, memoryUtilPercent: 70},
		{id: 'GPU-b', gpuUtilPercent: 7, memoryUtilPercent: 60},
	]);
	expect(merged.runtime?.container).toEqual(full.runtime?.container);
	expect(merged.imageName).toBe('example/train:2');
});

test('a stopped pod loses its runtime; resumed with fewer GPUs, it has as many as the summary says', () => {
	const stopped = withSummary(full, {id: 'p1', desiredStatus: 'EXITED', costPerHr: 0, gpuCount: 2, runtime: null});
	expect(stopped).toMatchObject({desiredStatus: 'EXITED', runtime: null, imageName: 'example/train:2'});
	const resumed = withSummary(stopped, {id: 'p1', desiredStatus: 'RUNNING', costPerHr: 2.1, gpuCount: 1, runtime: {gpus: [{gpuUtilPercent: 12}]}});
	expect(resumed.runtime).toEqual({gpus: [{gpuUtilPercent: 12}]});
	expect(resumed.gpuCount).toBe(1);
});

test('a pod never seen in full is its summary alone', () => {
	const summary = {id: 'p2', name: 'new', desiredStatus: 'RUNNING', costPerHr: 1, gpuCount: 1, podType: 'INTERRUPTABLE', runtime: null};
	expect(withSummary(undefined, summary)).toBe(summary);
});

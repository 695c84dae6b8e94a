import {afterEach, expect, test} from 'vitest';
import type {PodRecord} from '../../source/model/pod.js';
import {PodDetail} from '../../source/panes/pod-detail.js';
import {podStatus} from '../../source/rows/pod-rows.js';
import {frameMatching, renderWith, testStore} from '../helpers/ui-fixture.js';

let unmount: (() => void) | undefined;
afterEach(() => {
	unmount?.();
	unmount = undefined;
});

const v2Pod: PodRecord = {
	id: 'p1',
	name: 'trainer',
	desiredStatus: 'PROVISIONING',
	gpuCount: 1,
	machine: {gpuDisplayName: 'H100 SXM'},
	machineId: 'm-42',
	dataCenterId: 'EU-RO-1',
	cloudType: 'SECURE',
	cudaVersion: '12.8',
	podType: 'RESERVED',
	actions: ['terminate'],
};

test('REST v2 statuses of their own: PROVISIONING and ERROR need attention and sort first', () => {
	expect(podStatus({...v2Pod, desiredStatus: 'PROVISIONING'})).toMatchObject({label: 'PROVISIONING', short: 'PROV', attention: true, rank: 0});
	expect(podStatus({...v2Pod, desiredStatus: 'ERROR'})).toMatchObject({label: 'ERROR', short: 'ERR', attention: true, rank: 0});
	expect(podStatus({...v2Pod, desiredStatus: 'STARTING'})).toMatchObject({label: 'STARTING'});
});

test('pod details say where it runs as v2 tells it: data center, cloud, terms and CUDA', async () => {
	const state = testStore();
	state.writes.setPods([v2Pod], Date.now());
	const rendered = renderWith(state, <PodDetail podId='p1' showEnv={false} width={120} height={30} />, {
		view: {views: [{type: 'list'}, {type: 'pod', podId: 'p1', showEnv: false}]},
	});
	unmount = rendered.unmount;
	const frame = await frameMatching(rendered.lastFrame, /machine/);
	expect(frame).toMatch(/machine +m-42 in EU-RO-1 · secure cloud · on demand · CUDA 12\.8/);
	expect(frame).toMatch(/trainer \(p1\) PROVISIONING/);
});

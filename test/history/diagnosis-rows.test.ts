import {describe, expect, test, vi} from 'vitest';
import type {Health} from '../../source/api/job-types.js';
import type {PodRecord} from '../../source/model/pod.js';
import {createDiagnosisRows} from '../../source/history/diagnosis-rows.js';
import {createPodtopStore} from '../../source/store/create-store.js';
import * as diagnosis from '../../source/store/diagnosis.js';
import type {PodtopState} from '../../source/store/state.js';

vi.mock('../../source/store/diagnosis.js', async original => {
	const module = await original<typeof diagnosis>();
	return {...module, diagnose: vi.fn(module.diagnose)};
});

/** The endpoints diagnosed since the last call. */
function diagnosed(): string[] {
	const ids = vi.mocked(diagnosis.diagnose).mock.calls.map(([input]) => input.endpoint.id);
	vi.mocked(diagnosis.diagnose).mockClear();
	return ids;
}

const start = Date.UTC(2026, 10, 1, 12);

const health = (inQueue: number): Health => ({
	jobs: {completed: 10, failed: 0, inProgress: 0, inQueue, retried: 0},
	workers: {idle: 0, initializing: 0, ready: 0, running: 0, throttled: 0, unhealthy: 0},
});

const pod = (id: string, util: number): PodRecord => ({
	id,
	name: `pod ${id}`,
	imageName: 'runpod/pytorch',
	desiredStatus: 'RUNNING',
	costPerHr: 1,
	gpuCount: 1,
	runtime: {gpus: [{gpuUtilPercent: util, memoryUtilPercent: 50}], container: {cpuPercent: 30, memoryPercent: 40}},
});

/** The state with its endpoints' list replaced (by one whose map notes which endpoints were looked up). */
function spied(state: PodtopState, endpoints: PodtopState['endpoints']): PodtopState {
	return {...state, endpoints};
}

describe('the diagnoses as timeline rows', () => {
	test('a write that leaves the endpoints as they were looks only at those with jobs waiting; diagnosed again only when its inputs change or the time passed can change its verdict', () => {
		const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'example', keyFingerprint: '••••abcd'});
		writes.setEndpoints(
			['ep1', 'ep2', 'ep3'].map(id => ({id, name: `endpoint ${id}`, workersMin: 0, workersMax: 3})),
			start,
		);
		writes.setHealth('ep1', health(5), start);
		writes.setHealth('ep2', health(0), start);
		writes.setHealth('ep3', health(0), start);
		writes.setPods([pod('p1', 10)], start);
		const rows = createDiagnosisRows();
		const first = store.getState();
		const told = rows(undefined, first, start + 10_000);
		expect(diagnosed()).toEqual(['ep1', 'ep2', 'ep3']);
		expect(told.events).toEqual([]);
		told.commit();

		// The pods' writes leave the endpoints (and their workers) as they were.
		const looked: string[] = [];
		const endpoints = {
			...first.endpoints,
			byId: new Proxy(first.endpoints.byId, {
				get(target, id: string) {
					looked.push(id);
					return target[id];
				},
			}),
		};
		writes.setPods([pod('p1', 20)], start + 20_000);
		const second = store.getState();
		expect(second.endpoints).toBe(first.endpoints);
		rows(spied(first, endpoints), spied(second, endpoints), start + 20_000).commit();
		writes.setPods([pod('p1', 30)], start + 30_000);
		const third = store.getState();
		looked.length = 0;
		expect(rows(spied(second, endpoints), spied(third, endpoints), start + 30_000).events).toEqual([]);
		expect(new Set(looked)).toEqual(new Set(['ep1']));

		// The same inputs a minute on: the queue that waits unserved is now stuck, said once.
		writes.setPods([pod('p1', 40)], start + 80_000);
		const fourth = store.getState();
		// Diagnosed at 10 s, ep1's queue (unserved since 0 s) cannot turn stuck before 60 s: not diagnosed at 20 and 30 s.
		expect(diagnosed()).toEqual([]);
		const stuck = rows(spied(third, endpoints), spied(fourth, endpoints), start + 80_000);
		expect(diagnosed()).toEqual(['ep1']);
		expect(stuck.events.map(event => [event.subject, event.data?.word])).toEqual([['ep1', 'stuck']]);
		stuck.commit();

		// An endpoint whose health changed is diagnosed again (its queue waits now too), the others are not.
		writes.setHealth('ep2', health(3), start + 90_000);
		const fifth = store.getState();
		expect(fifth.endpoints).not.toBe(fourth.endpoints);
		writes.setHealth('ep2', health(3), start + 160_000);
		const sixth = store.getState();
		const both = rows(fourth, sixth, start + 160_000);
		expect(both.events.map(event => [event.subject, event.data?.word])).toEqual([['ep2', 'stuck']]);
		expect(diagnosed()).toEqual(['ep2']);
	});
});

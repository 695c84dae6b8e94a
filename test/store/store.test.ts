import {describe, expect, test} from 'vitest';
import type {Health} from '../../source/api/job-types.js';
import {createPodtopStore} from '../../source/store/create-store.js';
import {jobKey} from '../../source/store/job-key.js';
import {healthKeepFor, healthKeepMs} from '../../source/store/health-keep.js';
import {healthHistoryLimit, quietSampleMs} from '../../source/store/write-endpoints.js';
import {textLimit, trackedJobLimit, unfollowedTextLimit} from '../../source/store/write-jobs.js';
import {listUtilHistoryLimit} from '../../source/store/write-pods.js';

/** The store with its writers: tests write as the pollers do. */
function store() {
	const {store: podtop, writes} = createPodtopStore({mode: 'demo', apiHost: '127.0.0.1:1', keyFingerprint: '••••abcd'});
	return Object.assign(podtop, {writes});
}

function health(inQueue: number, completed: number, failed = 0): Health {
	return {jobs: {completed, failed, inProgress: 1, inQueue, retried: 0}, workers: {idle: 0, initializing: 0, ready: 1, running: 1, throttled: 0, unhealthy: 0}};
}

function countWrites(podtop: ReturnType<typeof store>): () => number {
	let writes = 0;
	podtop.subscribe(() => {
		writes++;
	});
	return () => writes;
}

describe('store', () => {
	test('writes nothing when a poll brings nothing new', () => {
		const podtop = store();
		const writes = countWrites(podtop);
		const actions = podtop.writes;
		const pods = [{id: 'p1', name: 'a', desiredStatus: 'RUNNING', runtime: {gpus: [{gpuUtilPercent: 50}]}}];
		actions.setPods(pods, 1);
		actions.setPods(structuredClone(pods), 2);
		actions.setEndpoints([{id: 'e1', name: 'one'}], 1);
		actions.setEndpoints([{id: 'e1', name: 'one'}], 2);
		actions.setGpuTypes([{id: 'g', lowestPrice: {stockStatus: 'High'}}], 1);
		actions.setGpuTypes([{id: 'g', lowestPrice: {stockStatus: 'High'}}], 2);
		actions.setHealth('e1', health(1, 10), 1000);
		actions.setHealth('e1', health(1, 10), 2000);
		actions.setBudgets({});
		expect(writes()).toBe(4);
	});

	test('a changed pod keeps the unchanged ones by identity and grows its utilisation history', () => {
		const podtop = store();
		const actions = podtop.writes;
		actions.setPods(
			[
				{id: 'a', runtime: {gpus: [{gpuUtilPercent: 10}, {gpuUtilPercent: 30}]}},
				{id: 'b', name: 'stopped'},
			],
			1,
		);
		const before = podtop.getState().pods.byId;
		actions.setPods(
			[
				{id: 'a', runtime: {gpus: [{gpuUtilPercent: 90}, {gpuUtilPercent: 70}]}},
				{id: 'b', name: 'stopped'},
			],
			2,
		);
		const after = podtop.getState().pods.byId;
		expect(after.b).toBe(before.b);
		expect(after.a!.utilHistory).toEqual([20, 80]);
	});

	test("a changed pod keeps what did not change from the last poll's record, and the same order is the same list", () => {
		const podtop = store();
		const poll = (util: number) => [
			{
				id: 'a',
				name: 'train',
				machine: {gpuDisplayName: 'H100', location: 'EU'},
				runtime: {
					gpus: [
						{id: 'g0', gpuUtilPercent: util},
						{id: 'g1', gpuUtilPercent: 5},
					],
				},
			},
			{id: 'b', name: 'stopped'},
		];
		podtop.writes.setPods(poll(10), 1);
		const before = podtop.getState().pods;
		podtop.writes.setPods(poll(90), 2);
		const after = podtop.getState().pods;
		const [a, aBefore] = [after.byId.a!.record, before.byId.a!.record];
		expect(a).not.toBe(aBefore);
		expect(a).toEqual(poll(90)[0]);
		expect(a.machine).toBe(aBefore.machine);
		expect(a.runtime!.gpus![1]).toBe(aBefore.runtime!.gpus![1]);
		expect(a.runtime!.gpus![0]).not.toBe(aBefore.runtime!.gpus![0]);
		expect(after.order).toBe(before.order);
		podtop.writes.setPods([...poll(90)].reverse(), 3);
		expect(podtop.getState().pods.order).toEqual(['b', 'a']);
	});

	test("a pod's list history keeps what its UTIL HISTORY column can draw, the newest last", () => {
		const podtop = store();
		for (let poll = 0; poll < listUtilHistoryLimit + 5; poll++) {
			podtop.writes.setPods([{id: 'a', runtime: {gpus: [{gpuUtilPercent: poll}]}}], poll);
		}

		const {utilHistory} = podtop.getState().pods.byId.a!;
		expect(utilHistory).toHaveLength(listUtilHistoryLimit);
		expect(utilHistory.at(-1)).toBe(listUtilHistoryLimit + 4);
		expect(utilHistory[0]).toBe(5);
	});

	test('health history is bounded; a quiet endpoint still gets a sample every 30 s', () => {
		const podtop = store();
		const actions = podtop.writes;
		actions.setEndpoints([{id: 'e', name: 'e'}], 0);
		for (let index = 0; index < healthHistoryLimit + 50; index++) {
			actions.setHealth('e', health(index, index), index * 1000);
		}

		expect(podtop.getState().endpoints.byId.e!.history).toHaveLength(healthHistoryLimit);
		const last = podtop.getState().endpoints.byId.e!.history.at(-1)!;
		actions.setHealth('e', health(last.inQueue, last.completed), last.at + 1000);
		expect(podtop.getState().endpoints.byId.e!.history.at(-1)).toBe(last);
		actions.setHealth('e', health(last.inQueue, last.completed), last.at + quietSampleMs);
		expect(podtop.getState().endpoints.byId.e!.history.at(-1)!.at).toBe(last.at + quietSampleMs);
	});

	test('health samples older than the keep are let go: ten minutes, or the longest failure-rate window of the rules', () => {
		// An endpoint off screen, polled once a minute for two hours: the count alone would keep all 120 samples.
		const poll = (podtop: ReturnType<typeof store>) => {
			podtop.writes.setEndpoints([{id: 'e', name: 'e'}], 0);
			for (let minute = 0; minute < 120; minute++) {
				podtop.writes.setHealth('e', health(minute % 7, minute * 10), minute * 60_000);
			}

			return podtop.getState().endpoints.byId.e!;
		};

		const kept = poll(store());
		expect(kept.history.map(sample => sample.at / 60_000)).toEqual([109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119]);
		// The figures read five minutes: all there.
		expect(kept.figures.throughputPerMinute).toBe(10);
		const rules = [
			{name: 'queue', kind: 'queue', over: 5, forMs: 0, endpoint: '*'},
			{name: 'failing', kind: 'failure-rate', overPercent: 20, windowMs: 30 * 60_000, endpoint: '*'},
		] as const;
		expect(healthKeepFor(undefined)).toBe(healthKeepMs);
		expect(healthKeepFor([rules[0]])).toBe(healthKeepMs);
		expect(healthKeepFor(rules)).toBe(30 * 60_000);
		const longer = () => {
			const {store: podtop, writes} = createPodtopStore({mode: 'demo', apiHost: '127.0.0.1:1', keyFingerprint: '••••abcd', healthKeepMs: healthKeepFor(rules)});
			return Object.assign(podtop, {writes});
		};

		expect(poll(longer()).history).toHaveLength(31);
		// On screen (every 5 s), the rule's half hour is there too (as ten minutes are without it): the count grows with the keep.
		const onScreen = longer();
		onScreen.writes.setEndpoints([{id: 'e', name: 'e'}], 0);
		for (let second = 0; second <= 40 * 60; second += 5) {
			onScreen.writes.setHealth('e', health(second % 7, second), second * 1000);
		}

		const {history} = onScreen.getState().endpoints.byId.e!;
		expect(history).toHaveLength(360);
		expect(history.at(-1)!.at - history[0]!.at).toBe(30 * 60_000 - 5000);
	});

	test('derives throughput, failure rate and drain ETA from the health history', () => {
		const podtop = store();
		const actions = podtop.writes;
		actions.setEndpoints([{id: 'e', name: 'e'}], 0);
		actions.setHealth('e', health(60, 100, 0), 0);
		actions.setHealth('e', health(30, 170, 30), 60_000);
		const {figures} = podtop.getState().endpoints.byId.e!;
		expect(figures.throughputPerMinute).toBe(100);
		expect(figures.failureRate).toBeCloseTo(0.3);
		expect(figures.drainEtaSeconds).toBe(18);
	});

	test('tracks at most 10,000 jobs, dropping the oldest finished ones first', () => {
		const podtop = store();
		const actions = podtop.writes;
		const first = actions.trackJob('e', 'job-0', {at: 0});
		actions.updateJob(first, {id: 'job-0', status: 'IN_PROGRESS'}, 1);
		const second = actions.trackJob('e', 'job-1', {at: 0});
		actions.updateJob(second, {id: 'job-1', status: 'COMPLETED'}, 1);
		for (let index = 2; index <= trackedJobLimit; index++) {
			actions.trackJob('e', `job-${index}`, {at: index});
		}

		const {jobs} = podtop.getState();
		expect(jobs.byKey.size).toBe(trackedJobLimit);
		expect(jobs.byKey.has(second)).toBe(false);
		expect(jobs.byKey.has(first)).toBe(true);
		expect(jobs.byKey.has(jobKey('e', `job-${trackedJobLimit}`))).toBe(true);
		expect(jobs.changed).toEqual([jobKey('e', `job-${trackedJobLimit}`), second]);
	});

	test('a job ends with its /status answer, not with the stream alone (a follower sees FAILED only with its error)', () => {
		const podtop = store();
		const actions = podtop.writes;
		const key = actions.trackJob('e', 'j', {follow: true});
		actions.updateJob(key, {id: 'j', status: 'IN_PROGRESS'}, 1);
		actions.appendStream(key, 'FAILED', [{output: 'last words'}], 2);
		expect(podtop.getState().jobs.byKey.get(key)).toMatchObject({status: 'IN_PROGRESS', text: 'last words'});
		actions.updateJob(key, {id: 'j', status: 'FAILED', error: 'CUDA out of memory'}, 3);
		expect(podtop.getState().jobs.byKey.get(key)).toMatchObject({status: 'FAILED', error: 'CUDA out of memory'});
		// A retried job's stream brings it back to life at once.
		actions.appendStream(key, 'IN_QUEUE', [], 4);
		expect(podtop.getState().jobs.byKey.get(key)!.status).toBe('IN_QUEUE');
	});

	test("a job's stream text accumulates (text chunks, strings, other values) and is bounded to its tail", () => {
		const podtop = store();
		const actions = podtop.writes;
		const key = actions.trackJob('e', 'j', {follow: true});
		actions.appendStream(key, 'IN_PROGRESS', [{output: {text: ['Hello ']}, metrics: {avg_gen_throughput: 50}}, {output: 'world'}], 1);
		actions.appendStream(key, 'IN_PROGRESS', [{output: {progress: 0.5}}], 2);
		const job = podtop.getState().jobs.byKey.get(key)!;
		expect(job.text).toBe('Hello world{"progress":0.5}\n');
		expect(job.metrics).toEqual({avg_gen_throughput: 50});
		expect(job.chunkCount).toBe(3);
		actions.appendStream(key, 'IN_PROGRESS', [{output: 'x'.repeat(textLimit * 2)}], 3);
		expect(podtop.getState().jobs.byKey.get(key)!.text).toHaveLength(textLimit);
		actions.setFollow(key, false);
		expect(podtop.getState().jobs.byKey.get(key)!.text).toHaveLength(unfollowedTextLimit);
	});

	test('connection state: stale from the first failure, cleared by the next success', () => {
		const podtop = store();
		const actions = podtop.writes;
		actions.reportSource('jobApi', 1);
		actions.reportSource('jobApi', 2, 'network error');
		actions.reportSource('jobApi', 3, 'network error');
		expect(podtop.getState().connection.jobApi).toMatchObject({staleSince: 2, lastError: 'network error', lastSuccessAt: 1});
		actions.reportSource('jobApi', 4);
		expect(podtop.getState().connection.jobApi.staleSince).toBeUndefined();
		expect(podtop.getState().connection.jobApi.lastSuccessAt).toBe(4);
	});
});

import {describe, expect, test} from 'vitest';
import {createStore} from 'zustand';
import type {Engine} from '../../source/engine/create-engine.js';
import type {RecordingState} from '../../source/history/history-types.js';
import {App} from '../../source/dashboard/app.js';
import type {WorkerRecord} from '../../source/model/worker.js';
import {EndpointDetail} from '../../source/panes/endpoint-detail.js';
import {frameMatching, health, renderWith, testStore, tick} from '../helpers/ui-fixture.js';

const worker = (id: string, status: string, more: Partial<WorkerRecord> = {}): WorkerRecord => ({
	id,
	status,
	isStale: false,
	version: 2,
	gpuTypeId: 'NVIDIA L40',
	gpuCount: 2,
	dataCenterId: 'US-TX-3',
	uptimeSeconds: 30,
	startedAt: Date.UTC(2026, 10, 1, 12, 0, 0),
	...more,
});

const keys = {enter: '\r', escape: '\u001B'};

/** An engine with only what the dashboard calls here: no history, nothing polled, writes allowed (so a write's target is what is asked). */
const quietEngine = () =>
	({
		readOnly: false,
		history: {reader: () => undefined, ready: Promise.resolve(), status: createStore<RecordingState>()(() => ({state: 'off'}))},
		showing() {},
		focus() {},
		watchPod: () => () => undefined,
		watchEndpoint: () => () => undefined,
		follow: () => () => undefined,
	}) as unknown as Engine;

/**
`llava`'s workers over four reads: `w-flaky` goes THROTTLED, restarts and goes UNHEALTHY; `w-short\e[2J` lives 40 s and goes
as jobs wait; `w-ok` runs the jobs podtop tracks.
*/
function workersStore() {
	const state = testStore();
	const {writes} = state;
	writes.setEndpoints([{id: 'ep1', name: 'llava', workersMin: 1, workersMax: 3}], 0);
	writes.setGpuTypes([{id: 'NVIDIA L40', displayName: 'L40', pool: 'ADA_48_PRO', lowestPrice: {stockStatus: 'Low'}}], 0);
	const now = Date.now();
	writes.setHealth('ep1', health({inQueue: 2, inProgress: 1, running: 1}), now);
	const read = (workers: WorkerRecord[], readAt: number) => {
		writes.setWorkers('ep1', {endpointId: 'ep1', endpointVersion: 2, workers, readAt});
	};

	const short = 'w-short\u001B[2J';
	read(
		[worker('w-flaky', 'IDLE', {uptimeSeconds: 100}), worker(short, 'INITIALIZING', {uptimeSeconds: 10}), worker('w-ok', 'RUNNING', {uptimeSeconds: 500})],
		now - 30_000,
	);
	read(
		[worker('w-flaky', 'THROTTLED', {uptimeSeconds: 110}), worker(short, 'RUNNING', {uptimeSeconds: 40}), worker('w-ok', 'RUNNING', {uptimeSeconds: 510})],
		now - 20_000,
	);
	read(
		[worker('w-flaky', 'THROTTLED', {uptimeSeconds: 3, startedAt: Date.UTC(2026, 10, 1, 12, 2, 0)}), worker('w-ok', 'RUNNING', {uptimeSeconds: 520})],
		now - 10_000,
	);
	read([worker('w-flaky', 'UNHEALTHY', {uptimeSeconds: 13, startedAt: Date.UTC(2026, 10, 1, 12, 2, 0)}), worker('w-ok', 'RUNNING', {uptimeSeconds: 530})], now);
	for (const [id, status, workerId] of [
		['job-a', 'COMPLETED', 'w-ok'],
		['job-b', 'IN_PROGRESS', 'w-ok'],
		['job-c', 'FAILED', 'w-flaky'],
	] as const) {
		const key = writes.trackJob('ep1', id);
		writes.updateJob(key, {id, status, workerId, delayTime: 1200, executionTime: 800}, now);
	}

	return state;
}

describe("a worker's own view", () => {
	test('the details list the gone workers apart, with their last status, how long they lived and when they went; service text inert', async () => {
		const {lastFrame} = renderWith(workersStore(), <EndpointDetail endpointId='ep1' width={160} height={40} />, {view: {columns: 160, rows: 40}});
		await tick();
		const frame = lastFrame()!;
		expect(frame).toMatch(/Workers \(2\) +w select/);
		expect(frame).toMatch(/Gone workers \(1, the newest first: the service no longer lists them\)/);
		expect(frame).toMatch(/GONE WORKER +LAST STATUS +RST +LIVED +WENT +QUEUE/);
		expect(frame).toMatch(/w-short␛\[2J +RUNNING +40s +\d\d:\d\d:\d\d +waited/);
		expect(frame).not.toMatch(/\u001B\[2J/);
	});

	test('w moves j/k and Enter onto the workers, listed then gone; Enter opens one; l opens its log; Esc goes back', async () => {
		const state = workersStore();
		const {lastFrame, stdin, view} = renderWith(state, <App readOnly={false} />, {
			engine: quietEngine(),
			view: {views: [{type: 'list'}, {type: 'endpoint', endpointId: 'ep1'}]},
		});
		await frameMatching(lastFrame, /Tracked jobs \(3\)/);
		stdin.write('w');
		await frameMatching(lastFrame, /Workers \(2\) +w jobs · Enter open/);
		// c and R act on a job: with j/k on the workers, none is selected (a worker's id is never taken for a job).
		stdin.write('c');
		await frameMatching(lastFrame, /no job selected/);
		expect(lastFrame()).not.toMatch(/Cancel/);
		stdin.write(keys.enter);
		// The most troubled first: the unhealthy one.
		await frameMatching(lastFrame, /Worker w-flaky of llava +l logs · Esc back/);
		let frame = lastFrame()!;
		expect(frame).toMatch(/UNHEALTHY since \d\d:\d\d:\d\d · release v2/);
		expect(frame).toMatch(/2× L40 · data center US-TX-3/);
		expect(frame).toMatch(/uptime \d+s · started .* · first seen \d\d:\d\d:\d\d · restarts seen 1/);
		expect(frame).toMatch(/Status changes \(4\)/);
		const changes = frame.split('\n').filter(line => /(status changed|reset\)|listed) +seen/.test(line));
		expect(changes.map(line => /(IDLE|THROTTLED|UNHEALTHY) +(status changed|restarted \(its uptime reset\)|listed)/.exec(line)?.slice(1))).toEqual([
			['UNHEALTHY', 'status changed'],
			['THROTTLED', 'restarted (its uptime reset)'],
			['THROTTLED', 'status changed'],
			['IDLE', 'listed'],
		]);
		expect(frame).toMatch(/Tracked jobs it served \(1\)/);
		expect(frame).toMatch(/job-c +FAILED/);
		expect(frame).not.toMatch(/job-a|job-b/);
		// l is the log operation's, as everywhere: this engine has no log streams (GraphQL), and says so.
		stdin.write('l');
		await frameMatching(lastFrame, /logs need REST v2/);
		expect(lastFrame()).toMatch(/Worker w-flaky of llava/);
		stdin.write(keys.escape);
		await frameMatching(lastFrame, /Workers \(2\) +w jobs/);
		// j twice: past the second listed worker onto the gone one.
		stdin.write('j');
		await tick();
		stdin.write('j');
		await tick();
		expect(view.getState().selected.workers.key).toBe('w-short\u001B[2J');
		stdin.write(keys.enter);
		frame = await frameMatching(lastFrame, /Worker w-short␛\[2J of llava \(gone\)/);
		expect(frame).toMatch(/gone: last listed RUNNING · release v2/);
		expect(frame).toMatch(/lived 40s · went between two reads, seen gone \d\d:\d\d:\d\d as jobs waited/);
		expect(frame).toMatch(/gone +no longer listed +seen/);
		expect(frame).not.toMatch(/\u001B\[2J/);
		stdin.write(keys.escape);
		await frameMatching(lastFrame, /Workers \(2\) +w jobs/);
		// w again: j/k and Enter are the jobs' once more.
		stdin.write('w');
		await frameMatching(lastFrame, /Workers \(2\) +w select/);
		stdin.write(keys.enter);
		await frameMatching(lastFrame, /Job job-\w on ep1/);
	});

	test(':worker <endpoint> <worker> opens one by the start of its id; one podtop has not seen says so', async () => {
		const {lastFrame, stdin} = renderWith(workersStore(), <App readOnly={false} />, {view: {views: [{type: 'list'}, {type: 'endpoint', endpointId: 'ep1'}]}});
		await frameMatching(lastFrame, /Tracked jobs \(3\)/);
		stdin.write(':worker llava w-o\r');
		await frameMatching(lastFrame, /Worker w-ok of llava/);
		expect(lastFrame()).toMatch(/Tracked jobs it served \(2\)/);
		stdin.write(':worker w-nobody\r');
		await frameMatching(lastFrame, /Worker w-nobody of llava/);
		expect(lastFrame()).toMatch(/podtop has not seen this worker/);
	});

	test('at 80×24 and 120×40 the worker view and the details with gone workers stay within rows − 1 lines', async () => {
		for (const [columns, rows] of [
			[80, 24],
			[120, 40],
		] as const) {
			for (const [last, drawn] of [
				[{type: 'worker', endpointId: 'ep1', workerId: 'w-flaky'}, /Tracked jobs it served \(1\)/],
				[{type: 'endpoint', endpointId: 'ep1'}, /Tracked jobs \(3\)/],
			] as const) {
				const rendered = renderWith(workersStore(), <App readOnly={false} />, {view: {columns, rows, views: [{type: 'list'}, last]}});
				const frame = await frameMatching(rendered.lastFrame, drawn);
				expect(frame.split('\n').length, frame).toBeLessThanOrEqual(rows - 1);
				expect(frame.split('\n').every(line => [...line].length <= columns)).toBe(true);
				if (last.type === 'endpoint') {
					expect(frame).toMatch(/Gone workers \(1/);
				}

				rendered.unmount();
			}
		}
	});
});

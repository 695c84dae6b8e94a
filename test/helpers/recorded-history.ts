import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {createStore} from 'zustand';
import type {GpuTypeRecord} from '../../source/model/gpu-type.js';
import type {PodRecord} from '../../source/model/pod.js';
import type {Engine} from '../../source/engine/create-engine.js';
import {openHistoryForWriting} from '../../source/history/history-file.js';
import type {HistoryReader, RecordingState} from '../../source/history/history-types.js';
import {createMaintenance} from '../../source/history/maintenance.js';
import type {History} from '../../source/history/open-history.js';
import {createRecorder} from '../../source/history/recorder.js';
import {createSqliteReader} from '../../source/history/sqlite-reader.js';
import {testStore, type TestState} from './ui-fixture.js';

/** What the account does in minute `minute` of the recording (0 is the oldest). */
export type Script = {
	readonly queue: (minute: number) => number;
	/** Jobs completed and failed in that minute (the counters grow by that much). */
	readonly completed: (minute: number) => number;
	readonly failed: (minute: number) => number;
	readonly running: (minute: number) => number;
	readonly throttled?: (minute: number) => number;
	/** Each GPU's utilisation of the pod `p1` (two GPUs). */
	readonly util: (minute: number, gpu: number) => number;
	readonly stock: (minute: number) => 'High' | 'Medium' | 'Low' | 'None';
	readonly bid: (minute: number) => number;
};

export const gpuRecord = (stock: string, bid: number): GpuTypeRecord => ({
	id: 'NVIDIA H100 80GB HBM3',
	displayName: 'H100 SXM',
	memoryInGb: 80,
	securePrice: 2.99,
	communityPrice: 2.69,
	secureSpotPrice: bid + 0.2,
	communitySpotPrice: bid,
	lowestPrice: {stockStatus: stock, minimumBidPrice: bid, uninterruptablePrice: 2.69, maxUnreservedGpuCount: stock === 'None' ? 0 : 4},
});

export const podRecord = (util: readonly number[]): PodRecord => ({
	id: 'p1',
	name: 'trainer',
	desiredStatus: 'RUNNING',
	costPerHr: 3.98,
	gpuCount: util.length,
	machine: {gpuDisplayName: 'H100 SXM'},
	runtime: {
		uptimeInSeconds: 600,
		gpus: util.map((value, index) => ({id: `g${index}`, gpuUtilPercent: value, memoryUtilPercent: 40 + index})),
		container: {cpuPercent: 30, memoryPercent: 50},
	},
});

export type Recorded = TestState & {
	readonly reader: HistoryReader;
	/** An engine with only what the panes read: the history's reader, and the calls they make. */
	readonly engine: Engine;
	readonly start: number;
	readonly end: number;
	/** Records one more poll at `at` (live, as the recorder would after a poll). */
	readonly poll: (at: number, minute: number) => void;
	readonly close: () => void;
};

/**
An account recorded for real: an endpoint `ep1` (llama), a pod `p1` with two GPUs and a GPU type,
polled every `everyMs` for `minutes` minutes ending at `end`, with rollups done, written by the
recorder into a real SQLite file and read back by the real reader.
*/
export async function recordHistory(script: Script, {minutes = 60, everyMs = 10_000, end = Date.now()} = {}): Promise<Recorded> {
	const directory = mkdtempSync(join(tmpdir(), 'podtop-charts-'));
	const file = join(directory, 'account.sqlite');
	const state = testStore();
	const {db} = openHistoryForWriting(file);
	const start = end - minutes * 60_000;
	let now = start;
	const recorder = createRecorder({store: state.store, db, file, now: () => now, live: false});
	const counters = {completed: 0, failed: 0};
	state.writes.setEndpoints([{id: 'ep1', name: 'llama', workersMin: 0, workersMax: 8}], start);
	const poll = (at: number, minute: number) => {
		now = at;
		counters.completed += script.completed(minute) * (everyMs / 60_000);
		counters.failed += script.failed(minute) * (everyMs / 60_000);
		state.writes.setHealth(
			'ep1',
			{
				jobs: {inQueue: script.queue(minute), inProgress: 1, completed: Math.round(counters.completed), failed: Math.round(counters.failed), retried: 0},
				workers: {running: script.running(minute), idle: 1, initializing: 0, ready: 1, throttled: script.throttled?.(minute) ?? 0, unhealthy: 0},
			},
			at,
		);
		state.writes.setPods([podRecord([script.util(minute, 0), script.util(minute, 1)])], at);
		state.writes.setGpuTypes([gpuRecord(script.stock(minute), script.bid(minute))], at);
		state.writes.reportSource('jobApi', at);
		state.writes.reportSource('graphql', at);
		recorder.flush(at);
	};

	for (let at = start; at <= end; at += everyMs) {
		poll(at, Math.floor((at - start) / 60_000));
	}

	await createMaintenance({db, now: () => end}).run();
	const reader = createSqliteReader({db, file, ownsDatabase: false});
	const history = {
		reader: () => reader,
		ready: Promise.resolve(),
		status: createStore<RecordingState>()(() => ({state: 'recording', file})),
	} as unknown as History;
	const engine = {
		readOnly: false,
		history,
		showing() {},
		focus() {},
		watchPod: () => () => undefined,
		watchEndpoint: () => () => undefined,
		follow: () => () => undefined,
	} as unknown as Engine;
	return {
		...state,
		reader,
		engine,
		start,
		end,
		poll,
		close() {
			recorder.stop();
			db.close();
			rmSync(directory, {recursive: true, force: true});
		},
	};
}

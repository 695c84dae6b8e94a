import {describe, expect, test} from 'vitest';
import type {Health} from '../../source/api/job-types.js';
import type {EndpointRecord} from '../../source/model/endpoint.js';
import type {GpuTypeRecord} from '../../source/model/gpu-type.js';
import type {WorkerList, WorkerRecord} from '../../source/model/worker.js';
import {createPodtopStore} from '../../source/store/create-store.js';
import {crashWindowMs, diagnose, unservedFor, verdictSteadyUntil, type DiagnosisInput} from '../../source/store/diagnosis.js';
import {diagnosisVerdict} from '../../source/store/diagnosis-verdict.js';
import {endpointDiagnosis} from '../../source/store/endpoint-diagnosis.js';
import type {HealthSample} from '../../source/store/types.js';
import {trackWorkers} from '../../source/store/worker-track.js';

const endpoint: EndpointRecord = {id: 'ep1', name: 'llava', gpuIds: 'AMPERE_48,ADA_48_PRO', workersMin: 0, workersMax: 2, locations: 'US'};
const gpus: GpuTypeRecord[] = [
	{id: 'NVIDIA A40', displayName: 'A40', pool: 'AMPERE_48', lowestPrice: {stockStatus: 'None'}},
	{id: 'NVIDIA L40', displayName: 'L40', pool: 'ADA_48_PRO', lowestPrice: {stockStatus: 'Low'}},
	{id: 'NVIDIA H100', displayName: 'H100', pool: 'HOPPER_80', lowestPrice: {stockStatus: 'High'}},
];

function health(inQueue: number, workers: Partial<Health['workers']> = {}, jobs: Partial<Health['jobs']> = {}): Health {
	return {
		jobs: {completed: 10, failed: 0, inProgress: 0, inQueue, retried: 0, ...jobs},
		workers: {idle: 0, initializing: 0, ready: 0, running: 0, throttled: 0, unhealthy: 0, ...workers},
	};
}

const worker = (id: string, status: string, more: Partial<WorkerRecord> = {}): WorkerRecord => ({
	id,
	status,
	isStale: false,
	version: 1,
	gpuTypeId: 'NVIDIA L40',
	gpuCount: 1,
	dataCenterId: 'US-TX-3',
	uptimeSeconds: 30,
	startedAt: 1_000_000,
	...more,
});

const list = (workers: WorkerRecord[], readAt: number, endpointVersion = 1): WorkerList => ({endpointId: 'ep1', endpointVersion, workers, readAt});

/** Samples every 10 s up to `now`, the queue waiting, nothing finishing. */
function waiting(queue: number, fromMs: number, now: number): HealthSample[] {
	const samples: HealthSample[] = [];
	for (let at = fromMs; at <= now; at += 10_000) {
		samples.push({at, inQueue: queue, inProgress: 0, completed: 10, failed: 0, retried: 0, running: 1});
	}

	return samples;
}

const now = 10_000_000;

function input(more: Partial<DiagnosisInput>): DiagnosisInput {
	return {endpoint, health: health(0), history: [], workers: undefined, gpus, now, ...more};
}

const kinds = (more: Partial<DiagnosisInput>) => diagnose(input(more)).findings.map(finding => finding.kind);

describe('the diagnosis of a waiting queue', () => {
	test('at its limit: max workers reached, with the figures; max 0 whatever the queue', () => {
		const workers = trackWorkers(undefined, list([worker('a', 'RUNNING'), worker('b', 'RUNNING')], now), true);
		const diagnosis = diagnose(input({health: health(7, {running: 2}, {inProgress: 2}), workers}));
		expect(diagnosis.findings).toEqual([
			{kind: 'at-limit', word: 'at limit', short: 'limit', text: 'at its limit: 2 of max 2 workers, 7 jobs wait; a higher max lets more start'},
		]);
		expect(diagnosis.unservedMs).toBeUndefined();
		expect(diagnose(input({endpoint: {...endpoint, workersMax: 0}, health: health(3)})).findings[0]!.text).toBe(
			'at its limit: max workers is 0, so no worker may start (3 jobs wait)',
		);
		expect(kinds({health: health(7, {running: 1}, {inProgress: 1}), workers: trackWorkers(undefined, list([worker('a', 'RUNNING')], now), true)})).toEqual([]);
	});

	test('no capacity: THROTTLED workers, with the stock of the pools’ GPU types; or none up and every type out of stock', () => {
		const workers = trackWorkers(undefined, list([worker('a', 'THROTTLED')], now), true);
		const [finding] = diagnose(input({health: health(4, {throttled: 1}), workers})).findings;
		expect(finding).toEqual({
			kind: 'no-capacity',
			word: 'no capacity',
			short: 'no gpu',
			text: 'no capacity: 1 worker THROTTLED, waiting for a GPU; stock of AMPERE_48,ADA_48_PRO in US: A40 None, L40 Low',
		});
		const soldOut = gpus.map(type => ({...type, lowestPrice: {stockStatus: 'None'}}));
		const empty = trackWorkers(undefined, list([], now), true);
		expect(diagnose(input({health: health(4), workers: empty, gpus: soldOut})).findings[0]!.text).toBe(
			'no capacity: no worker up while 4 jobs wait; stock of AMPERE_48,ADA_48_PRO in US: A40 None, L40 None',
		);
		expect(kinds({health: health(4), workers: empty})).toEqual([]);
	});

	test('cold start: INITIALIZING for how long against the 7-minute limit', () => {
		const workers = trackWorkers(undefined, list([worker('a', 'INITIALIZING', {uptimeSeconds: 100})], now - 30_000), true);
		expect(diagnose(input({health: health(2, {initializing: 1}), workers})).findings).toEqual([
			{
				kind: 'cold-start',
				word: 'cold start',
				short: 'cold',
				text: 'cold start: 1 worker INITIALIZING, the longest for 2m10s of the 7m00s the service allows before it marks a worker unhealthy',
			},
		]);
		const long = trackWorkers(undefined, list([worker('a', 'INITIALIZING', {uptimeSeconds: 450})], now), true);
		expect(diagnose(input({health: health(2), workers: long})).findings[0]!.text).toBe(
			'cold start: 1 worker INITIALIZING, the longest for 7m30s (over the 7m00s after which the service marks a worker unhealthy)',
		);
	});

	test('stale release: workers on an older version, with the rollout', () => {
		const workers = trackWorkers(undefined, list([worker('a', 'IDLE', {isStale: true, version: 0}), worker('b', 'IDLE')], now), false);
		const rollout = {endpointId: 'ep1', endpointVersion: 1, inProgress: true, workersOnLatest: 1, workersTotal: 2, percentOnLatest: 50, releases: []};
		expect(diagnose(input({workers, rollout})).findings).toEqual([
			{kind: 'stale-release', word: 'stale', short: 'stale', text: 'stale release: 1 of 2 workers on v0, not the latest v1 (50 % on the latest, rolling out)'},
		]);
	});

	test('crash loop: UNHEALTHY workers', () => {
		const workers = trackWorkers(undefined, list([worker('a', 'UNHEALTHY'), worker('b', 'RUNNING')], now), true);
		expect(diagnose(input({health: health(3, {unhealthy: 1, running: 1}, {inProgress: 1}), workers})).findings[0]!.text).toBe(
			"crash loop: 1 worker UNHEALTHY; the workers' logs say why",
		);
		expect(kinds({health: health(3, {unhealthy: 2})})).toEqual(['crash-loop', 'at-limit']);
	});

	test('crash loop although the worker reads THROTTLED with unhealthy 0: its uptime reset between reads', () => {
		const first = trackWorkers(undefined, list([worker('a', 'THROTTLED', {uptimeSeconds: 40, startedAt: 1_000_000})], now - 20_000), true);
		const second = trackWorkers(first, list([worker('a', 'THROTTLED', {uptimeSeconds: 3, startedAt: 1_050_000})], now), true);
		expect(second.tracks.a).toMatchObject({restarts: 1, lastRestartAt: now});
		const diagnosis = diagnose(input({health: health(2, {throttled: 1}), workers: second}));
		expect(diagnosis.findings.map(finding => finding.kind)).toEqual(['crash-loop', 'no-capacity']);
		expect(diagnosis.findings[0]!.text).toBe(
			"crash loop: 1 worker restarted 1 time (uptime reset) in 15m00s · the service shows THROTTLED 1, unhealthy 0; the workers' logs say why",
		);
	});

	test('crash loop: workers gone young while jobs waited, and workers that read RUNNING serving nothing while the queue waits', () => {
		const first = trackWorkers(undefined, list([worker('a', 'RUNNING', {uptimeSeconds: 50})], now - 300_000), true);
		const second = trackWorkers(first, list([worker('b', 'RUNNING', {uptimeSeconds: 5, startedAt: 2_000_000})], now - 200_000), true);
		expect(second.gone).toMatchObject([
			{id: 'a', at: now - 200_000, status: 'RUNNING', uptimeSeconds: 50, queueWaited: true, last: {id: 'a', status: 'RUNNING'}},
		]);
		const history = waiting(5, now - 180_000, now);
		const diagnosis = diagnose(input({health: health(5, {running: 1}), history, workers: second}));
		expect(diagnosis.unservedMs).toBe(180_000);
		expect(diagnosis.findings[0]!.text).toBe(
			"crash loop: 1 worker gone after 50s or less while jobs waited; none served a job in 3m00s while 5 waited, though 1 worker read RUNNING 1 · the service shows RUNNING 1, unhealthy 0; the workers' logs say why",
		);
		// Idle workers going while no job waits are a scale-down, not a crash.
		const idle = trackWorkers(trackWorkers(undefined, list([worker('a', 'IDLE')], now - 60_000), false), list([], now), false);
		expect(kinds({workers: idle})).toEqual([]);
	});

	test('a read that differs only by uptime writes nothing; no job served is measured from /health samples', () => {
		const first = trackWorkers(undefined, list([worker('a', 'IDLE', {uptimeSeconds: 10})], now - 5000), false);
		expect(trackWorkers(first, list([worker('a', 'IDLE', {uptimeSeconds: 15})], now), false)).toBe(first);
		const served = waiting(3, now - 100_000, now).map((sample, index) => (index === 4 ? {...sample, completed: 9} : sample));
		expect(unservedFor(served, now)).toBe(50_000);
		expect(unservedFor([...served.slice(0, -1), {...served.at(-1)!, inProgress: 1}], now)).toBeUndefined();
		expect(unservedFor([], now)).toBeUndefined();
	});
});

describe('what a diagnosis reads', () => {
	test('the pools’ stock only when a finding says it; one list of GPU types for every endpoint of a state', () => {
		let read = 0;
		const counted = new Proxy(gpus, {
			get(target, key) {
				if (key === 'filter') {
					read++;
				}

				return Reflect.get(target, key) as unknown;
			},
		});
		expect(kinds({gpus: counted, health: health(0, {running: 1})})).toEqual([]);
		expect(kinds({gpus: counted, health: health(3, {running: 1})})).toEqual([]);
		expect(read).toBe(0);
		expect(kinds({gpus: counted, health: health(3, {throttled: 1})})).toEqual(['no-capacity']);
		expect(read).toBe(1);

		const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'example', keyFingerprint: '••••abcd'});
		writes.setEndpoints([endpoint, {...endpoint, id: 'ep2'}], now);
		writes.setGpuTypes(gpus, now);
		const state = store.getState();
		let looked = 0;
		const spied = {
			...state,
			gpus: {
				...state.gpus,
				byId: new Proxy(state.gpus.byId, {
					get(target, id: string) {
						looked++;
						return target[id];
					},
				}),
			},
		};
		expect(endpointDiagnosis(spied, 'ep1', now)).toEqual(endpointDiagnosis(state, 'ep1', now));
		looked = 0;
		endpointDiagnosis(spied, 'ep1', now);
		endpointDiagnosis(spied, 'ep2', now);
		expect(looked).toBe(0);
	});
});

describe('how long a verdict holds', () => {
	const verdict = (more: Partial<DiagnosisInput>) => diagnosisVerdict(diagnose(input(more)));

	test('the same input keeps its verdict until the time given, and may change it there: a queue turning stuck, restarts and workers gone leaving the window', () => {
		const restarted = trackWorkers(
			trackWorkers(undefined, list([worker('a', 'RUNNING', {uptimeSeconds: 40, startedAt: 1_000_000})], now - 120_000), true),
			list([worker('a', 'RUNNING', {uptimeSeconds: 3, startedAt: 1_050_000})], now - 100_000),
			true,
		);
		const gone = trackWorkers(
			trackWorkers(undefined, list([worker('a', 'RUNNING', {uptimeSeconds: 50})], now - 400_000), true),
			list([worker('b', 'IDLE', {uptimeSeconds: 5, startedAt: 2_000_000})], now - 300_000),
			true,
		);
		const cases: Array<Partial<DiagnosisInput>> = [
			{health: health(5), history: waiting(5, now - 20_000, now)},
			{health: health(5, {running: 1}), history: waiting(5, now - 30_000, now), workers: gone},
			{health: health(0, {running: 1}), workers: restarted},
			{health: health(2, {running: 1}), history: waiting(2, now - 10_000, now), workers: restarted},
			{health: health(0)},
		];
		const changedAt = [now + 40_000, now + 30_000, now - 100_000 + crashWindowMs, now + 50_000, Infinity];
		for (const [index, more] of cases.entries()) {
			const at = {...input(more), now};
			const until = verdictSteadyUntil(at, diagnose(at).unservedMs);
			expect(until).toBe(changedAt[index]);
			for (let later = now; later < Math.min(until, now + 30 * 60_000); later += 5000) {
				expect(verdict({...more, now: later})).toBe(verdict(more));
			}

			// A bound may be early (a worker gone or restarted already made a crash loop when the queue's minute adds to it), never late.
			if (index === 0 || index === 2) {
				expect(verdict({...more, now: until + 1})).not.toBe(verdict(more));
			}
		}
	});
});

import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {ApiError} from '../../source/api/errors.js';
import type {GpuTypeRecord} from '../../source/model/gpu-type.js';
import type {PodRecord} from '../../source/model/pod.js';
import type {Health} from '../../source/api/job-types.js';
import {openHistoryForWriting} from '../../source/history/history-file.js';
import {accountPoints, matrixOf, rawPoints, sampleValue, stepPoints, vectorOf} from '../../source/history/prometheus-answers.js';
import {pastAccount} from '../../source/history/prometheus-state.js';
import {createRecorder} from '../../source/history/recorder.js';
import {createSqliteReader} from '../../source/history/sqlite-reader.js';
import {createMetrics} from '../../source/serve/metrics.js';
import {createPodtopStore} from '../../source/store/create-store.js';
import {asMatrix, asVector, parseExposition, type ExposedSample} from '../helpers/exposition.js';

const start = Date.parse('2026-11-20T03:00:00Z');
const scrape = {job: 'podtop', instance: '127.0.0.1:9469'};

const health = (inQueue: number, completed: number): Health => ({
	jobs: {inQueue, inProgress: 2, completed, failed: 3, retried: 1},
	workers: {running: 2, idle: 1, initializing: 1, ready: 1, throttled: 1, unhealthy: 0},
});

const pods = (util: number): PodRecord[] => [
	{
		id: 'p1',
		name: 'trainer "big"',
		imageName: 'runpod/pytorch:2.4',
		desiredStatus: 'RUNNING',
		costPerHr: 3.99,
		gpuCount: 2,
		machine: {gpuDisplayName: 'A100 80GB'},
		runtime: {
			uptimeInSeconds: 3600,
			gpus: [
				{id: 'GPU-zz', gpuUtilPercent: util, memoryUtilPercent: 50},
				{id: 'GPU-aa', gpuUtilPercent: util + 1, memoryUtilPercent: 51},
			],
			container: {cpuPercent: 30, memoryPercent: 40},
		},
	},
	{id: 'p2', name: 'parked', imageName: 'ubuntu', desiredStatus: 'EXITED', costPerHr: 0.44, gpuCount: 1, machine: {gpuDisplayName: 'L4'}, runtime: null},
];

const gpuTypes: GpuTypeRecord[] = [
	{
		id: 'NVIDIA L4',
		displayName: 'L4',
		securePrice: 0.43,
		communityPrice: 0.39,
		secureSpotPrice: 0.25,
		communitySpotPrice: 0.22,
		oneWeekPrice: 0.41,
		oneMonthPrice: 0.4,
		threeMonthPrice: 0.38,
		sixMonthPrice: 0.36,
		lowestPrice: {stockStatus: 'Medium', maxUnreservedGpuCount: 6, uninterruptablePrice: 0.39, minimumBidPrice: 0.19},
	},
];

/**
One account written both ways: the SQLite recorder records it, and `podtop export` serves it (its
text parsed into the answers Prometheus gives for it). Five polls 10 s apart.
*/
async function recordedBothWays() {
	const directory = mkdtempSync(join(tmpdir(), 'podtop-prom-answers-'));
	const file = join(directory, 'account.sqlite');
	const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'example', keyFingerprint: '••••abcd'});
	const {db} = openHistoryForWriting(file, start);
	const recorder = createRecorder({store, db, file, now: () => start, live: false});
	const reader = createSqliteReader({db, file, ownsDatabase: false});
	const metrics = createMetrics(store);
	const scrapes: Array<{at: number; samples: ExposedSample[]}> = [];
	for (let index = 0; index < 5; index++) {
		const at = start + index * 10_000;
		writes.setEndpoints([{id: 'ep1', name: 'llama', workersMin: 1, workersMax: 4}], at);
		writes.setHealth('ep1', health(5 + index, 100 + index * 6), at);
		writes.setPods(pods(90 - index), at);
		writes.setGpuTypes(gpuTypes, at);
		recorder.flush(at);
		scrapes.push({at, samples: parseExposition(await metrics.registry.metrics(), scrape)});
	}

	metrics.close();
	return {
		reader,
		scrapes,
		close() {
			db.close();
			rmSync(directory, {recursive: true, force: true});
		},
	};
}

describe('answers read back as the SQLite reader gives them', () => {
	test("raw samples: each kind's fields in the SQLite order, from the exporter's metrics", async () => {
		const both = await recordedBothWays();
		try {
			const matrix = matrixOf(asMatrix(both.scrapes), 'test');
			const end = start + 40_000;
			for (const [kind, key] of [
				['endpoint', 'ep1'],
				['pod', 'p1'],
				['pod', 'p2'],
				['gpu', 'NVIDIA L4'],
			] as const) {
				const [recorded] = await both.reader.series({kind, keys: [key], from: start, to: end});
				const read = rawPoints(kind, matrix).find(thing => thing.key === key)!;
				expect(read.name, `${kind} ${key}`).toBe(recorded!.name);
				expect(read.points, `${kind} ${key}`).toHaveLength(5);
				// The recorder writes what changed; each point read from Prometheus is the one recorded at or before it.
				for (const point of read.points) {
					const same = recorded!.points.findLast(each => each.at <= point.at)!;
					expect(point.last, `${kind} ${key} at ${point.at - start}`).toEqual(same.last);
					expect(point.state, `${kind} ${key} state`).toBe(same.state);
					expect(point).toMatchObject({count: 1, min: point.last, mean: point.last, max: point.last});
				}
			}
		} finally {
			both.close();
		}
	});

	test('the account at a moment: records, health, runtime and prices as the SQLite reader rebuilds them', async () => {
		const both = await recordedBothWays();
		try {
			const at = start + 40_000;
			const now = both.scrapes.at(-1)!;
			const earlier = both.scrapes[1]!;
			// What Prometheus answers stateQuery(): the series as they stood, each part of it tagged.
			const tagged = (samples: ExposedSample[], term: string, keepName: boolean) =>
				samples.map(({metric: {__name__: name, ...labels}, value}) => ({
					metric: {...(keepName ? {__name__: name!} : {}), ...labels, podtop_term: term},
					value,
				}));
			const queue = now.samples.filter(({metric}) => metric.__name__ === 'podtop_endpoint_jobs_in_queue');
			const answer = vectorOf(
				{
					resultType: 'vector',
					result: [
						...asVector(now.samples, at).result,
						...asVector(tagged(queue, 'at', false), at).result.map(sample => ({...sample, value: [at / 1000, String(now.at / 1000)]})),
						...asVector(
							tagged(
								earlier.samples.filter(({metric}) => /^podtop_endpoint_(jobs_|workers$)/.test(metric.__name__!)),
								'before',
								true,
							),
							at,
						).result,
						...asVector(tagged(queue, 'before_at', false), at).result.map(sample => ({...sample, value: [at / 1000, String(earlier.at / 1000)]})),
						{metric: {podtop_term: 'scraped'}, value: [at / 1000, String(now.at / 1000)]},
					],
				},
				'test',
			);
			const read = pastAccount(answer, at)!;
			const recorded = (await both.reader.stateAt(at))!;
			expect(read).toMatchObject({at, tier: 'raw', alerts: []});
			expect(read.endpoints.order).toEqual(recorded.endpoints.order);
			const [mine, theirs] = [read.endpoints.byId.ep1!, recorded.endpoints.byId.ep1!];
			expect(mine.record).toEqual({id: 'ep1', name: 'llama', workersMin: 1, workersMax: 4});
			expect(mine.health).toEqual(theirs.health);
			expect(mine.healthAt).toBe(now.at);
			// 30 s apart, 18 more completed: 36 a minute; the queue grew, so no drain time.
			expect(mine.figures).toEqual({throughputPerMinute: 36, failureRate: 0, retryRate: 0, drainEtaSeconds: undefined});

			expect(read.pods.order).toEqual(['parked', 'trainer "big"'].map(name => recorded.pods.order.find(id => recorded.pods.byId[id]!.record.name === name)));
			for (const id of ['p1', 'p2']) {
				const {record} = recorded.pods.byId[id]!;
				const {imageName, name, desiredStatus, costPerHr, gpuCount, machine} = record;
				expect(read.pods.byId[id]!.record, id).toMatchObject({
					imageName,
					name,
					desiredStatus,
					costPerHr,
					gpuCount,
					machine: {gpuDisplayName: machine!.gpuDisplayName},
				});
				expect(read.pods.byId[id]!.record.runtime?.gpus ?? null, id).toEqual(record.runtime?.gpus ?? null);
				expect(read.pods.byId[id]!.record.runtime?.container ?? null, id).toEqual(record.runtime?.container ?? null);
			}

			expect(read.pods.byId.p1!.record.runtime?.uptimeInSeconds).toBe(3600);
			const {lowestPrice, ...prices} = recorded.gpus.byId['NVIDIA L4']!.record;
			const {compliance: _compliance, ...lowest} = lowestPrice!;
			expect(read.gpus.byId['NVIDIA L4']!.record).toEqual({...prices, lowestPrice: lowest});
			expect(read.gpus.byId['NVIDIA L4']!.stockHistory).toEqual(['Medium']);
			expect(read.connection.graphql.lastSuccessAt).toBe(now.at);
		} finally {
			both.close();
		}
	});

	test('nothing within the lookback is no account at all; a scrape of an empty account is an empty one', () => {
		expect(pastAccount([], start)).toBeUndefined();
		const empty = pastAccount(
			vectorOf({resultType: 'vector', result: [{metric: {podtop_term: 'scraped'}, value: [start / 1000 - 3, '1795479276.879']}]}, 't'),
			start,
		)!;
		expect(empty.pods.order).toEqual([]);
		expect(empty.connection.jobApi.lastSuccessAt).toBe(1_795_479_276_879);
	});
});

describe('step answers', () => {
	const series = (term: string, labels: Record<string, string>, values: Array<[number, string]>) => ({
		metric: {...scrape, ...labels, podtop_term: term},
		values,
	});
	const t = (seconds: number) => start / 1000 + seconds;

	test('each evaluation closes the step before it; summaries go to their fields; the state is the status at the step end; two scrapes of one account merge', () => {
		const pod = {pod_id: 'p1', pod: 'trainer'};
		const matrix = matrixOf(
			{
				resultType: 'matrix',
				result: [
					series('min:podtop_pod_cpu_percent', pod, [
						[t(60), '10'],
						[t(120), '12'],
					]),
					// The same pod scraped by a second Prometheus job: the smaller minimum wins, the first last.
					series('min:podtop_pod_cpu_percent', {...pod, instance: 'other:9469'}, [[t(60), '8']]),
					series('max:podtop_pod_cpu_percent', pod, [[t(60), '30']]),
					series('mean:podtop_pod_cpu_percent', pod, [[t(60), '20.5']]),
					series('last:podtop_pod_cpu_percent', pod, [[t(60), '25']]),
					series('last:podtop_pod_gpu_utilization_percent', {...pod, gpu: 'GPU-b', gpu_index: '1'}, [[t(60), '77']]),
					series('last:podtop_pod_gpu_memory_utilization_percent', {...pod, gpu: 'GPU-a', gpu_index: '0'}, [[t(60), 'NaN']]),
					series('count:podtop_pod_info', {...pod, status: 'RUNNING'}, [[t(60), '4']]),
					series('count:podtop_pod_info', {...pod, status: 'EXITED'}, [[t(60), '2']]),
					series('state:podtop_pod_info', {...pod, __name__: 'podtop_pod_info', status: 'EXITED'}, [[t(60), '1']]),
					series('last:podtop_pod_cpu_percent', {pod_id: 'p2', pod: 'old name'}, [[t(60), '1']]),
					series('last:podtop_pod_cpu_percent', {pod_id: 'p2', pod: 'new name'}, [[t(120), '2']]),
					series('last:podtop_unknown_metric', pod, [[t(60), '5']]),
				],
			},
			'test',
		);
		const [p1, p2] = stepPoints('pod', matrix, 60_000);
		expect(p1!.key).toBe('p1');
		expect(p1!.points.map(point => point.at)).toEqual([start, start + 60_000]);
		const [first] = p1!.points;
		expect(first).toMatchObject({count: 6, state: 'EXITED'});
		// costPerHr, gpuCount, up, cpuPercent, memoryPercent, gpu0.util, gpu0.memory, gpu1.util, gpu1.memory
		expect(first!.min).toEqual([null, null, null, 8, null, null, null, null, null]);
		expect(first!.mean).toEqual([null, null, null, 20.5, null, null, null, null, null]);
		expect(first!.max).toEqual([null, null, null, 30, null, null, null, null, null]);
		expect(first!.last).toEqual([null, null, null, 25, null, null, null, 77, null]);
		expect(p2!.name).toBe('new name');
	});

	test("the account: each field's summaries by position, the scrapes a step holds", () => {
		const matrix = matrixOf(
			{
				resultType: 'matrix',
				result: [
					series('min:0', {}, [[t(3600), '1.5']]),
					series('last:0', {}, [[t(3600), '2.25']]),
					series('last:2', {}, [[t(3600), '7']]),
					series('count:account', {}, [[t(3600), '3600']]),
				],
			},
			'test',
		);
		expect(accountPoints(matrix, 3_600_000)).toEqual([
			{
				at: start,
				count: 3600,
				state: undefined,
				min: [1.5, null, null, null, null],
				mean: [null, null, null, null, null],
				max: [null, null, null, null, null],
				last: [2.25, null, 7, null, null],
			},
		]);
		const raw = accountPoints(matrix, undefined);
		expect(raw[0]).toMatchObject({at: start + 3_600_000, count: 1, min: raw[0]!.last});
	});

	test('values Prometheus writes as NaN or ±Inf are unknown; an answer of the wrong shape is the server’s fault', () => {
		expect([sampleValue('NaN'), sampleValue('+Inf'), sampleValue('-Inf'), sampleValue(''), sampleValue('0.25'), sampleValue('1e3')]).toEqual([
			null,
			null,
			null,
			null,
			0.25,
			1000,
		]);
		expect(() => vectorOf({resultType: 'matrix', result: []}, 'Prometheus at x')).toThrow(ApiError);
		expect(() => matrixOf({resultType: 'vector', result: []}, 'Prometheus at x')).toThrow(/not a range vector/);
		expect(
			matrixOf(
				{
					resultType: 'matrix',
					result: [
						{metric: {a: 1}, values: []},
						{metric: {}, values: [[1, '2']]},
					],
				},
				'x',
			),
		).toHaveLength(1);
	});
});

import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import type {PodRecord} from '../../source/model/pod.js';
import type {Health} from '../../source/api/job-types.js';
import {snapshotOfPast} from '../../source/engine/take-snapshot.js';
import {csvRow, csvText} from '../../source/format/csv.js';
import {inertJson} from '../../source/format/sanitize.js';
import {eventDocument, eventsTable} from '../../source/headless/events-text.js';
import {findThing} from '../../source/headless/find-thing.js';
import {pastSnapshotText} from '../../source/headless/past-snapshot-text.js';
import {seriesCsv} from '../../source/headless/series-csv.js';
import {seriesDocument} from '../../source/headless/series-json.js';
import {seriesTable} from '../../source/headless/series-table.js';
import {thingsCsv} from '../../source/headless/things-text.js';
import {readStep, readTimeRange} from '../../source/commands/time-range.js';
import {openHistoryForWriting, type SqliteDatabase} from '../../source/history/history-file.js';
import type {HistoryReader, KnownThing} from '../../source/history/history-types.js';
import {createRecorder} from '../../source/history/recorder.js';
import {createSqliteReader} from '../../source/history/sqlite-reader.js';
import {NotFoundError} from '../../source/lib/not-found-error.js';
import {momentHelp} from '../../source/lib/time-spec.js';
import {UsageError} from '../../source/lib/usage-error.js';
import {createPodtopStore} from '../../source/store/create-store.js';

// Tables show local time: fix it so the expected strings are the same everywhere.
process.env.TZ = 'UTC';

const start = Date.parse('2026-11-20T03:00:00Z');
/** The queue at each of ten polls 5 s apart: what every assertion below is worked out from. */
const queues = [4, 8, 6, 0, 12, 3, 3, 9, 1, 5];
/** A pod name a spreadsheet would run, with a quote, a comma, an escape and a bidi override in it. */
const hostile = '=HYPERLINK("http://evil.example/?x",\u001B[31m"a,b"\u202E)';

const health = (inQueue: number, completed: number): Health => ({
	jobs: {inQueue, inProgress: 1, completed, failed: 2, retried: 0},
	workers: {running: 2, idle: 1, initializing: 0, ready: 1, throttled: 0, unhealthy: 0},
});

const pod = (id: string, name: string, util: number): PodRecord => ({
	id,
	name,
	desiredStatus: 'RUNNING',
	costPerHr: 0.69,
	gpuCount: 1,
	runtime: {gpus: [{gpuUtilPercent: util, memoryUtilPercent: 40}], container: {cpuPercent: 12, memoryPercent: 30}},
});

let db: SqliteDatabase;
let reader: HistoryReader;
let directory: string;
let end: number;

beforeAll(() => {
	directory = mkdtempSync(join(tmpdir(), 'podtop-history-output-'));
	const file = join(directory, 'account.sqlite');
	let now = start;
	const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'example', keyFingerprint: '••••abcd'});
	db = openHistoryForWriting(file, now).db;
	const recorder = createRecorder({store, db, file, now: () => now, live: false});
	reader = createSqliteReader({db, file, ownsDatabase: false});
	writes.setEndpoints(
		[
			{id: 'ep1', name: 'llama', workersMin: 1, workersMax: 4},
			{id: 'ep2', name: 'shared-name', workersMin: 0, workersMax: 1},
		],
		now,
	);
	for (const [index, queue] of queues.entries()) {
		now = start + index * 5000;
		writes.setHealth('ep1', health(queue, 100 + index), now);
		writes.setHealth('ep2', health(0, 7), now);
		writes.setPods([pod('p1', hostile, 50 + index), pod('p2', 'shared-name', 0)], now);
		recorder.flush(now);
	}

	end = now;
});

afterAll(() => {
	db.close();
	rmSync(directory, {recursive: true, force: true});
});

const range = () => ({from: start - 60_000, to: end + 1000});

async function seriesOf(key: string, step?: number) {
	const [series] = await reader.series({kind: key.startsWith('p') ? 'pod' : 'endpoint', keys: [key], ...range(), step});
	return series!;
}

describe('history as CSV', () => {
	test('raw samples: a header naming every field, a row per sample with the values as recorded', async () => {
		const csv = seriesCsv(await seriesOf('ep1'))
			.trimEnd()
			.split('\n');
		expect(csv[0]).toBe('at,key,name,inQueue,inProgress,completed,failed,retried,running,idle,initializing,ready,throttled,unhealthy,workersMin,workersMax');
		expect(csv).toHaveLength(queues.length + 1);
		expect(csv[1]).toBe(`${new Date(start).toISOString()},ep1,llama,${queues[0]},1,100,2,0,2,1,0,1,0,0,1,4`);
		expect(csv.slice(1).map(line => Number(line.split(',')[3]))).toEqual(queues);
	});

	test('merged points: samples, then the mean under the field name with _min and _max beside it', async () => {
		const csv = seriesCsv(await seriesOf('ep1', 20_000))
			.trimEnd()
			.split('\n');
		const header = csv[0]!.split(',');
		expect(header.slice(0, 7)).toEqual(['at', 'key', 'name', 'samples', 'inQueue', 'inQueue_min', 'inQueue_max']);
		expect(header.at(-3)).toBe('workersMax');
		// 20-second buckets from 03:00:00: four samples each, then the last two.
		const buckets = [queues.slice(0, 4), queues.slice(4, 8), queues.slice(8)];
		expect(csv.slice(1).map(line => line.split(',').slice(3, 7).map(Number))).toEqual(
			buckets.map(bucket => [bucket.length, bucket.reduce((sum, value) => sum + value, 0) / bucket.length, Math.min(...bucket), Math.max(...bucket)]),
		);
	});

	test('a hostile name is one inert, quoted cell that no spreadsheet runs', async () => {
		const csv = seriesCsv(await seriesOf('p1'))
			.trimEnd()
			.split('\n');
		expect(csv[0]).toBe('at,key,name,state,costPerHr,gpuCount,up,cpuPercent,memoryPercent,gpu0.util,gpu0.memory');
		const cell = String.raw`"'=HYPERLINK(""http://evil.example/?x"",␛[31m""a,b""\u202e)"`;
		expect(csv[1]).toBe(`${new Date(start).toISOString()},p1,${cell},RUNNING,0.69,1,1,12,30,50,40`);
		expect(csv.join('\n')).not.toMatch(/[\u001B\u202E]/);
	});

	test('text cells: formulas get a leading quote, numbers stay numbers, quotes and commas are quoted', () => {
		expect(['=1+2', '+1', '-2+3', '@SUM(A1)', 'plain', 'a"b', 'a,b', ' lead'].map(text => csvText(text))).toEqual([
			"'=1+2",
			"'+1",
			"'-2+3",
			"'@SUM(A1)",
			'plain',
			'"a""b"',
			'"a,b"',
			'" lead"',
		]);
		expect(csvRow(['x', -2, null, undefined, 0.5])).toBe('x,-2,,,0.5');
	});

	test('the list of things passes the same cell writer', () => {
		const things: KnownThing[] = [{kind: 'pod', key: 'p1', name: '@evil', firstAt: start, lastAt: start, deletedAt: end}];
		expect(thingsCsv(things)).toBe(`kind,key,name,first_seen,deleted_at\npod,p1,'@evil,${new Date(start).toISOString()},${new Date(end).toISOString()}\n`);
	});
});

describe('history as JSON', () => {
	test('one document: what, which tier and step, and per point each field by name as {min, mean, max, last}', async () => {
		const document = JSON.parse(inertJson(seriesDocument(await seriesOf('ep1'), range())));
		expect(Object.keys(document)).toEqual(['kind', 'key', 'name', 'deleted', 'deletedAt', 'tier', 'step', 'stepMs', 'from', 'to', 'fields', 'points']);
		expect(document).toMatchObject({kind: 'endpoint', key: 'ep1', name: 'llama', deleted: false, deletedAt: null, tier: 'raw', step: null, stepMs: 0});
		expect(document.from).toBe(new Date(range().from).toISOString());
		expect(document.points).toHaveLength(queues.length);
		expect(document.points[1]).toMatchObject({at: new Date(start + 5000).toISOString(), samples: 1, state: null});
		expect(document.points[1].inQueue).toEqual({min: queues[1], mean: queues[1], max: queues[1], last: queues[1]});
		expect(document.points.map((point: {completed: {last: number}}) => point.completed.last)).toEqual(queues.map((_, index) => 100 + index));
	});

	test('merged: the step said, each field summarised over its bucket', async () => {
		const document = seriesDocument(await seriesOf('ep1', 20_000), range());
		expect(document).toMatchObject({step: '20s', stepMs: 20_000, tier: 'raw'});
		const bucket = queues.slice(4, 8);
		expect(document.points[1]?.samples).toBe(4);
		expect(document.points[1]?.inQueue).toEqual({
			min: Math.min(...bucket),
			mean: bucket.reduce((sum, value) => sum + value, 0) / bucket.length,
			max: Math.max(...bucket),
			last: bucket.at(-1),
		});
	});

	test('a minute step before any minute is rolled up: the raw samples merged, not nothing', async () => {
		const document = seriesDocument(await seriesOf('ep1', 60_000), range());
		expect(document).toMatchObject({tier: 'minute', step: '1m', stepMs: 60_000});
		expect(document.points).toHaveLength(1);
		expect(document.points[0]).toMatchObject({at: new Date(start).toISOString(), samples: queues.length});
		expect(document.points[0]?.inQueue).toMatchObject({mean: queues.reduce((sum, value) => sum + value, 0) / queues.length, last: queues.at(-1)});
	});

	test('a hostile name comes back equal, with nothing a terminal acts on in the text', async () => {
		const text = inertJson(seriesDocument(await seriesOf('p1'), range()));
		expect(text).not.toMatch(/[\u001B\u202E]/);
		expect(JSON.parse(text).name).toBe(hostile);
	});
});

describe('history as a table', () => {
	test('the time and the figures, what and when above; a narrow terminal drops the least useful columns', async () => {
		const series = await seriesOf('ep1');
		const wide = seriesTable(series, range()).split('\n');
		expect(wide[0]).toBe(
			`endpoint llama (ep1) · 2026-11-20 02:59:00 → 03:00:46 · raw samples as recorded (each change, and everything once a minute), 10 rows`,
		);
		expect(wide[2]).toMatch(/^TIME\s+QUEUE\s+PROG\s+DONE\s+FAILED\s+RETRIED\s+RUN\s+IDLE\s+INIT\s+READY\s+THROT\s+UNHLT\s+MIN-MAX$/);
		expect(wide[3]).toMatch(new RegExp(String.raw`^03:00:00\s+${queues[0]}\s+1\s+100\s+2\s+0\s+2\s+1\s+0\s+1\s+0\s+0\s+1-4$`));
		const narrow = seriesTable(series, range(), 50).split('\n').slice(2, -1);
		expect(Math.max(...narrow.map(line => line.length))).toBeLessThanOrEqual(50);
		expect(narrow[0]).toMatch(/^TIME\s+QUEUE\s+PROG\s+DONE\s+FAILED\s+RUN/);
		expect(narrow[0]).not.toContain('RETRIED');
	});

	test('a pod: status, cost and GPU use, its hostile name inert in the title', async () => {
		const table = seriesTable(await seriesOf('p1', 60_000), range());
		expect(table).not.toMatch(/[\u001B\u202E]/);
		expect(table).toContain('␛[31m');
		const mean = queues.reduce((sum, _value, index) => sum + 50 + index, 0) / queues.length;
		expect(table.split('\n')[3]).toMatch(new RegExp(String.raw`^03:00\s+RUNNING\s+\$0\.69/h\s+${Math.round(mean)}\s+40\s+12\s+30\s+1`));
	});
});

describe('finding a thing by name', () => {
	test('an id first, then the exact name, then either in any case', async () => {
		const things = await reader.things();
		expect(findThing(things, 'ep1').name).toBe('llama');
		expect(findThing(things, 'LLAMA').key).toBe('ep1');
		expect(findThing(things, 'shared-name', 'pod').key).toBe('p2');
	});

	test('a name two things share is exit 4 listing them and how to pick, as an unknown one is, with the closest', async () => {
		const things = await reader.things();
		const ambiguous = (() => {
			try {
				return findThing(things, 'shared-name');
			} catch (error) {
				return error;
			}
		})();
		expect(ambiguous).toBeInstanceOf(NotFoundError);
		expect((ambiguous as Error).message).toBe(
			'"shared-name" names 2 things: endpoint shared-name (ep2); pod shared-name (p2). Pick one by its id, or --kind endpoint|pod',
		);
		expect(() => findThing(things, 'lama')).toThrow(NotFoundError);
		expect(() => findThing(things, 'lama')).toThrow('nothing is recorded for "lama"; the closest: endpoint llama (ep1)');
	});
});

describe('time ranges', () => {
	const now = start;
	test('--since, or --from and --to; a time that does not parse says what one looks like', () => {
		expect(readTimeRange({since: '45m'}, 3_600_000, now)).toEqual({from: now - 45 * 60_000, to: now});
		expect(readTimeRange({}, 3_600_000, now)).toEqual({from: now - 3_600_000, to: now});
		expect(readTimeRange({from: '2026-11-20T02:00:00Z', to: '2026-11-20T02:30:00Z'}, 3_600_000, now)).toEqual({
			from: Date.parse('2026-11-20T02:00:00Z'),
			to: Date.parse('2026-11-20T02:30:00Z'),
		});
		expect(() => readTimeRange({since: '1h', from: '2h'}, 3_600_000, now)).toThrow(UsageError);
		expect(() => readTimeRange({from: '1h', to: '2h'}, 3_600_000, now)).toThrow('--from must come before --to');
		expect(() => readTimeRange({since: 'yesterday'}, 3_600_000, now)).toThrow(momentHelp);
		expect(readStep('1m')).toBe(60_000);
		expect(() => readStep('0s')).toThrow(UsageError);
	});
});

describe('the past and the timeline', () => {
	test('snapshot --at: the moment, exact within the raw tier, and the same tables', async () => {
		const at = start + 12_000;
		const past = await reader.stateAt(at);
		const snapshot = snapshotOfPast(past!, {mode: 'live', apiHost: 'example'});
		expect(snapshot).toMatchObject({via: 'history', at: new Date(at).toISOString(), tier: 'raw', alerts: []});
		expect(snapshot.endpoints.find(endpoint => endpoint.id === 'ep1')?.health.jobs.inQueue).toBe(queues[2]);
		const text = pastSnapshotText(snapshot, at + 41 * 60_000);
		expect(text.split('\n')[0]).toBe('LIVE · example · AT 2026-11-20 03:00:12 (41m00s ago) · as recorded: each thing as last sampled at or before then');
		expect(text).toContain('No alert was firing then.');
		expect(text).toMatch(/ENDPOINT\s+NAME\s+RUN/);
		expect(text).not.toMatch(/[\u001B\u202E]/);
	});

	test('events: a table for people and a JSON object per line', () => {
		const event = {at: start, type: 'status', kind: 'pod', subject: 'p1', name: hostile, data: {from: 'RUNNING', to: 'EXITED'}} as const;
		const table = eventsTable([event], {from: start - 1000, to: start + 1000}).split('\n');
		expect(table[0]).toMatch(/^TIME\s+TYPE\s+SUBJECT\s+WHAT$/);
		expect(table[1]).toMatch(/^03:00:00\s+status\s+pod =HYPERLINK.*␛\[31m.*\(p1\)\s+RUNNING → EXITED$/);
		expect(table.join('\n')).not.toMatch(/[\u001B\u202E]/);
		expect(JSON.parse(inertJson(eventDocument(event)))).toEqual({...event, at: new Date(start).toISOString()});
	});
});

import {spawn} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {kindFields} from '../../source/history/fields.js';
import {momentHelp} from '../../source/lib/time-spec.js';
import {gqlData} from '../helpers/graphql-client.js';
import {cliEnv, cliPath, collect, runCli, type CliResult} from '../helpers/run-cli.js';
import {startTestSim, waitFor, waitForStatus, type TestSim} from '../helpers/sim-client.js';

const key = 'rpa_HISTORYCLISECRET0000111122223333';
/** A name a spreadsheet would run and a terminal would act on. */
const hostile = '=HYPERLINK("http://evil.example/?q",\u001B[31m"a,b")';
/** What must never reach a terminal raw. */
const raw = /[\u0007\u001B\u0080-\u009F\u200B-\u200F\u202A-\u202E\u2066-\u2069]/;
const jobs = 8;

const state = mkdtempSync(join(tmpdir(), 'podtop-history-cli-state-'));
const runtime = mkdtempSync(join(tmpdir(), 'podtop-history-cli-run-'));
let sim: TestSim;
let hostileId: string;
let shared: {podId: string; name: string; endpointId: string};
let stoppedPod: string;
let recordedFrom: number;
let recordedTo: number;
/** Every output of every run, to check the key is in none. */
const outputs: string[] = [];

const env = () => cliEnv({RUNPOD_API_KEY: key, XDG_STATE_HOME: state, XDG_RUNTIME_DIR: runtime, TZ: 'UTC'});
const urls = () => ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`];

async function podtop(...args: string[]): Promise<CliResult> {
	const result = await runCli([...args, ...urls()], env());
	outputs.push(result.stdout, result.stderr);
	return result;
}

const saveEndpoint = async (name: string): Promise<string> =>
	(
		await gqlData(sim, 'mutation Save($input: EndpointInput!) { saveEndpoint(input: $input) { id } }', {
			input: {name, templateId: 't', gpuIds: 'ADA_24', workersMin: 0, workersMax: 1},
		})
	).saveEndpoint.id as string;

beforeAll(async () => {
	sim = await startTestSim({
		apiKey: key,
		graphqlRate: 100,
		load: false,
		endpoints: [{id: 'echo', name: 'echo', workersMin: 1, workersMax: 1, flashBoot: true}],
	});
	hostileId = await saveEndpoint(hostile);
	const pods = (await gqlData(sim, '{ myself { pods { id name desiredStatus } } }')).myself.pods as Array<{id: string; name: string; desiredStatus: string}>;
	// An endpoint named as a pod is: the name alone cannot say which.
	shared = {podId: pods[0]!.id, name: pods[0]!.name, endpointId: await saveEndpoint(pods[0]!.name)};
	stoppedPod = pods.find(pod => pod.desiredStatus === 'RUNNING' && pod.id !== shared.podId)!.id;

	// Record for real: the agent polls the simulator for about 20 s while a queue builds on echo and a pod is stopped.
	const agent = spawn(process.execPath, [cliPath, 'agent', ...urls()], {env: env()});
	const agentOutput = collect(agent, 120_000);
	let log = '';
	agent.stderr.on('data', (text: Buffer | string) => {
		log += String(text);
	});
	await waitFor(() => log.includes('recording history'), 20_000);
	// The pod to stop is recorded running first: stopped before the agent's first pods poll, it would be seen EXITED from the start.
	await waitFor(async () => (await podtop('history', stoppedPod, '--json')).code === 0, 20_000, 500);
	recordedFrom = Date.now();
	const ids = await Promise.all(Array.from({length: jobs}, async () => sim.run('echo', {delay_ms: 2500})));
	const stop = await podtop('pod', 'stop', stoppedPod);
	expect(stop.code).toBe(0);
	for (const id of ids) {
		await waitForStatus(sim, 'echo', id, 'COMPLETED', 60_000);
	}

	// Until the agent has polled echo's last figures, and at least 20 s in all.
	await waitFor(async () => (await sim.health('echo')).jobs.completed === jobs, 10_000);
	// And until its pods poll (every 20 s while nobody looks at them) has seen the pod stopped.
	await waitFor(async () => (await podtop('events', '--since', '1h', '--type', 'status', '--jsonl')).stdout.includes('"to":"EXITED"'), 45_000, 1000);
	await new Promise(resolve => setTimeout(resolve, Math.max(7000, recordedFrom + 20_000 - Date.now())));
	agent.kill('SIGTERM');
	const ended = await agentOutput;
	recordedTo = Date.now();
	outputs.push(ended.stdout, ended.stderr);
	expect(ended.code).toBe(0);
}, 120_000);

afterAll(async () => {
	await sim.close();
	rmSync(state, {recursive: true, force: true});
	rmSync(runtime, {recursive: true, force: true});
});

type Figures = {min: number; mean: number; max: number; last: number};
type Point = {at: string; samples: number; state: string | null; inQueue: Figures; completed: Figures; workersMax: Figures};

describe('podtop history over a file the agent recorded', () => {
	test('--json: echo as the simulator had it, every point in the recording, each field {min, mean, max, last}', async () => {
		const {code, stdout, stderr} = await podtop('history', 'echo', '--json', '--since', '10m');
		expect(stderr).toBe('');
		expect(code).toBe(0);
		const document = JSON.parse(stdout) as {kind: string; key: string; name: string; tier: string; step: null; fields: string[]; points: Point[]};
		expect(document).toMatchObject({kind: 'endpoint', key: 'echo', name: 'echo', deleted: false, tier: 'raw', step: null, fields: kindFields.endpoint});
		const health = await sim.health('echo');
		const spec = ((await sim.call('GET', '/__sim/endpoints')).body.endpoints as Array<{id: string; workersMax: number}>).find(each => each.id === 'echo')!;
		const last = document.points.at(-1)!;
		expect(last.completed.last).toBe(health.jobs.completed);
		expect(last.inQueue.last).toBe(health.jobs.inQueue);
		expect(last.workersMax.last).toBe(spec.workersMax);
		// One worker, `jobs` jobs at once: the queue was seen, never above jobs - 1.
		const queues = document.points.map(point => point.inQueue.max);
		expect(Math.max(...queues)).toBeGreaterThan(0);
		expect(Math.max(...queues)).toBeLessThanOrEqual(jobs - 1);
		for (const point of document.points) {
			expect(Date.parse(point.at)).toBeGreaterThanOrEqual(recordedFrom - 15_000);
			expect(Date.parse(point.at)).toBeLessThanOrEqual(recordedTo);
			expect(point.inQueue.min).toBe(point.inQueue.max);
		}
	});

	test('--csv: the header from the fields, a row per point; --step merges points into buckets the reader summarises', async () => {
		const json = JSON.parse((await podtop('history', 'echo', '--json', '--since', '10m')).stdout) as {points: Point[]};
		const csv = await podtop('history', 'echo', '--csv', '--since', '10m');
		expect(csv.code).toBe(0);
		const lines = csv.stdout.trimEnd().split('\n');
		expect(lines[0]).toBe(['at', 'key', 'name', ...kindFields.endpoint].join(','));
		expect(lines).toHaveLength(json.points.length + 1);
		const completed = 3 + kindFields.endpoint.indexOf('completed');
		expect(Number(lines.at(-1)!.split(',')[completed])).toBe((await sim.health('echo')).jobs.completed);

		const merged = JSON.parse((await podtop('history', 'echo', '--json', '--since', '10m', '--step', '10s')).stdout) as {step: string; points: Point[]};
		expect(merged.step).toBe('10s');
		expect(merged.points.reduce((sum, point) => sum + point.samples, 0)).toBe(json.points.length);
		for (const point of merged.points) {
			const start = Date.parse(point.at);
			expect(start % 10_000).toBe(0);
			const inside = json.points.filter(each => Date.parse(each.at) >= start && Date.parse(each.at) < start + 10_000);
			expect(point.inQueue.max).toBe(Math.max(...inside.map(each => each.inQueue.max)));
			expect(point.completed.last).toBe(inside.at(-1)!.completed.last);
		}

		const mergedCsv = (await podtop('history', 'echo', '--csv', '--since', '10m', '--step', '10s')).stdout.split('\n');
		expect(mergedCsv[0]).toMatch(/^at,key,name,samples,inQueue,inQueue_min,inQueue_max,inProgress,/);
	});

	test('a hostile name: one quoted, neutralised CSV cell, inert JSON that parses back to it, an inert table', async () => {
		const csv = await podtop('history', hostileId, '--csv', '--since', '10m');
		expect(csv.code).toBe(0);
		expect(csv.stdout).not.toMatch(raw);
		expect(csv.stdout.split('\n')[1]!.split(',').slice(1, 3).join(',')).toBe(`${hostileId},"'=HYPERLINK(""http://evil.example/?q""`);
		expect(csv.stdout.split('\n')[1]).toContain(String.raw`␛[31m""a,b"")"`);
		const json = await podtop('history', hostileId, '--json', '--since', '10m');
		expect(json.stdout).not.toMatch(raw);
		expect(JSON.parse(json.stdout).name).toBe(hostile);
		const table = await podtop('history', hostileId, '--since', '10m');
		expect(table.stdout).not.toMatch(raw);
		expect(table.stdout).toContain('␛[31m');
		const list = await podtop('history', '--csv');
		expect(list.stdout).toContain(`endpoint,${hostileId},"'=HYPERLINK(`);
	});

	test('with no thing: what is recorded, by kind, id and name', async () => {
		const {code, stdout} = await podtop('history', '--json');
		expect(code).toBe(0);
		const things = JSON.parse(stdout) as Array<{kind: string; key: string; name: string; deleted: boolean}>;
		const pods = (await gqlData(sim, '{ myself { pods { id } } }')).myself.pods as Array<{id: string}>;
		expect(
			things
				.filter(thing => thing.kind === 'pod')
				.map(thing => thing.key)
				.sort(),
		).toEqual(pods.map(pod => pod.id).sort());
		expect(things).toContainEqual(expect.objectContaining({kind: 'endpoint', key: 'echo', name: 'echo', deleted: false}));
		const table = await podtop('history');
		expect(table.stdout).toMatch(/^KIND\s+ID\s+NAME\s+FIRST SEEN\s+DELETED/);
	});

	test('a name two things share is exit 4 (as in every verb) naming both and how to pick; --kind picks', async () => {
		const ambiguous = await podtop('history', shared.name);
		expect(ambiguous.code).toBe(4);
		expect(ambiguous.stderr).toContain(`endpoint ${shared.name} (${shared.endpointId})`);
		expect(ambiguous.stderr).toContain(`pod ${shared.name} (${shared.podId})`);
		expect(ambiguous.stderr).toContain('--kind endpoint|pod');
		const picked = await podtop('history', shared.name, '--kind', 'pod', '--json', '--since', '10m');
		expect(picked.code).toBe(0);
		expect(JSON.parse(picked.stdout)).toMatchObject({kind: 'pod', key: shared.podId});
	});

	test('exit 4 for a name or a time nothing is recorded for, saying what is; exit 2 for a time that does not parse', async () => {
		const unknown = await podtop('history', 'ech');
		expect(unknown.code).toBe(4);
		expect(unknown.stderr).toContain('nothing is recorded for "ech"; the closest: endpoint echo');
		const before = new Date(recordedFrom - 3_600_000).toISOString();
		const early = await podtop('history', 'echo', '--from', before, '--to', new Date(recordedFrom - 1_800_000).toISOString());
		expect(early.code).toBe(4);
		expect(early.stderr).toMatch(/nothing is recorded for endpoint echo in .*; recorded \d{4}-\d\d-\d\d /);
		const past = await podtop('snapshot', '--at', before);
		expect(past.code).toBe(4);
		expect(past.stderr).toContain('nothing is recorded at');
		const quiet = await podtop('events', '--from', before, '--to', new Date(recordedFrom - 1_800_000).toISOString());
		expect(quiet.code).toBe(4);

		const bad = await podtop('history', 'echo', '--since', 'last tuesday');
		expect(bad.code).toBe(2);
		expect(bad.stderr).toContain(momentHelp);
		expect((await podtop('snapshot', '--at', '25:99')).code).toBe(2);
		expect((await podtop('history', 'echo', '--since', '1h', '--from', '2h')).code).toBe(2);
		expect((await podtop('events', '--type', 'nonsense')).code).toBe(2);
		expect((await podtop('history', '--kind', 'nonsense')).code).toBe(2);
	});

	test('--info: the file, its tiers, counts, and an integrity check that says ok', async () => {
		const {code, stdout} = await podtop('history', '--info', '--json');
		expect(code).toBe(0);
		const info = JSON.parse(stdout);
		expect(info).toMatchObject({kind: 'sqlite', integrity: 'ok'});
		expect(info.source).toMatch(new RegExp(String.raw`^${state}/podtop/history/account-[\da-f]{16}\.sqlite$`));
		expect(info.bytes).toBeGreaterThan(0);
		const things = JSON.parse((await podtop('history', '--json')).stdout) as unknown[];
		expect(info.series).toBe(things.length);
		expect(info.tiers[0]).toMatchObject({tier: 'raw', retention: '2d'});
		expect(Date.parse(info.tiers[0].to)).toBeLessThanOrEqual(recordedTo);
		const text = await podtop('history', '--info');
		expect(text.stdout).toMatch(/integrity\s+ok/);
	});
});

describe('podtop snapshot --at', () => {
	test('the account 10 s ago, as the simulator had it, in the JSON of snapshot with the moment and tier', async () => {
		const {code, stdout, stderr} = await podtop('snapshot', '--at', '10s', '--json');
		expect(stderr).toBe('');
		expect(code).toBe(0);
		const snapshot = JSON.parse(stdout);
		expect(snapshot).toMatchObject({mode: 'live', via: 'history', tier: 'raw', alerts: []});
		expect(Date.now() - Date.parse(snapshot.at)).toBeGreaterThanOrEqual(10_000);
		const pods = (await gqlData(sim, '{ myself { pods { id name } } }')).myself.pods as Array<{id: string; name: string}>;
		expect((snapshot.pods as Array<{id: string}>).map(pod => pod.id).sort()).toEqual(pods.map(pod => pod.id).sort());
		const echo = (snapshot.endpoints as Array<{id: string; health: {jobs: {completed: number}}}>).find(endpoint => endpoint.id === 'echo');
		// Nothing ran on echo in the last 10 s of the recording: its counters then are its counters now.
		expect(echo?.health.jobs.completed).toBe((await sim.health('echo')).jobs.completed);
		expect((snapshot.pods as Array<{id: string; desiredStatus: string}>).find(pod => pod.id === stoppedPod)?.desiredStatus).toBe('EXITED');

		const text = await podtop('snapshot', '--at', '10s');
		expect(text.code).toBe(0);
		expect(text.stdout).toMatch(/^LIVE · 127\.0\.0\.1:\d+ · AT \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \(\d+s ago\) · as recorded/);
		expect(text.stdout).toContain('No alert was firing then.');
		expect(text.stdout).toMatch(/ENDPOINT\s+NAME\s+RUN/);
		expect(text.stdout).not.toMatch(raw);
	});
});

describe('podtop events', () => {
	test('the write from the audit log and the status change it made, as a table and as JSON lines', async () => {
		const {code, stdout} = await podtop('events', '--since', '1h', '--jsonl');
		expect(code).toBe(0);
		const events = stdout
			.trimEnd()
			.split('\n')
			.map(line => JSON.parse(line) as {at: string; type: string; kind: string | null; subject: string | null; data: Record<string, unknown>});
		expect(events).toContainEqual(
			expect.objectContaining({type: 'write', kind: 'pod', subject: stoppedPod, data: expect.objectContaining({operation: 'pod.stop', outcome: 'ok'})}),
		);
		expect(events).toContainEqual(expect.objectContaining({type: 'status', kind: 'pod', subject: stoppedPod, data: {from: 'RUNNING', to: 'EXITED'}}));
		const times = events.map(event => Date.parse(event.at));
		expect(times).toEqual([...times].sort((a, b) => a - b));

		const writes = await podtop('events', '--since', '1h', '--type', 'write', '--jsonl');
		expect(
			new Set(
				writes.stdout
					.trimEnd()
					.split('\n')
					.map(line => JSON.parse(line).type),
			),
		).toEqual(new Set(['write']));
		const table = await podtop('events', '--since', '1h');
		expect(table.stdout).toMatch(/^TIME\s+TYPE\s+SUBJECT\s+WHAT/);
		expect(table.stdout).toMatch(new RegExp(String.raw`status\s+pod .*\(${stoppedPod}\)\s+RUNNING → EXITED`));
		expect(table.stdout).toMatch(/write\s+pod .*pod\.stop ok/);
	});

	test('spend under the series, from the bills kept: the account by category and each resource by name, a pod its own; said when none are kept', async () => {
		const hour = 3_600_000;
		const window = ['--from', new Date(Math.floor(Date.now() / hour) * hour - hour).toISOString(), '--to', new Date().toISOString()];
		const none = await podtop('history', 'account', ...window, '--json');
		expect(none.code).toBe(0);
		expect((JSON.parse(none.stdout) as {spend: unknown}).spend).toEqual({none: expect.stringContaining('no bills kept') as unknown});

		// What podtop spend reads it keeps in the history file.
		const spent: Record<string, {total: number; resources?: Array<{id: string; name: string; total: number}>}> = {};
		for (const by of ['category', 'pod', 'endpoint', 'volume']) {
			const read = await podtop('spend', ...window, '--bucket', 'hour', '--by', by, '--json');
			expect(read.code).toBe(0);
			spent[by] = JSON.parse(read.stdout) as (typeof spent)[string];
		}

		const cents = (dollars: number) => Math.round(dollars * 100);
		type Spend = {
			bucketSize: string;
			total: number;
			byCategory: Record<string, number>;
			resources: Array<{kind: string; id: string; name: string; total: number}>;
		};
		const account = JSON.parse((await podtop('history', 'account', ...window, '--json')).stdout) as {spend: Spend};
		expect(account.spend.bucketSize).toBe('hour');
		expect(cents(account.spend.total)).toBe(cents(spent.category!.total));
		expect(account.spend.total).toBeGreaterThan(0);
		const pod = spent.pod!.resources!.find(resource => resource.name !== '')!;
		expect(account.spend.resources).toContainEqual(expect.objectContaining({kind: 'pod', id: pod.id, name: pod.name}));
		expect(cents(account.spend.resources.filter(resource => resource.kind === 'pod').reduce((sum, resource) => sum + resource.total, 0))).toBe(
			cents(spent.pod!.total),
		);

		const own = JSON.parse((await podtop('history', pod.id, ...window, '--json')).stdout) as {spend: Spend};
		expect(cents(own.spend.total)).toBe(cents(pod.total));
		expect(own.spend).not.toHaveProperty('resources');
		const table = await podtop('history', 'account', ...window);
		expect(table.code).toBe(0);
		expect(table.stdout).toMatch(/\nspend .*\(recorded bills, UTC hours\): \$\d+\.\d\d\n/);
		expect(table.stdout).toMatch(new RegExp(String.raw`\n${pod.name.replaceAll(/[.*+?^${}()|[\]\\]/g, String.raw`\$&`)}\s+pod\s+${pod.id}\s+\$`));
	});

	test('the key is in no output of any command, nor in the agent’s log', () => {
		expect(outputs.length).toBeGreaterThan(20);
		for (const output of outputs) {
			expect(output).not.toContain(key);
		}
	});
});

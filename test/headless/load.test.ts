import {spawn} from 'node:child_process';
import {mkdtempSync, readFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {cliEnv, cliPath, collect, runCli} from '../helpers/run-cli.js';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';

let sim: TestSim;
const key = 'rpa_LOADSECRET0000111122223333444';
const state = mkdtempSync(path.join(tmpdir(), 'podtop-load-'));
const auditPath = path.join(state, 'podtop', 'audit.jsonl');

beforeAll(async () => {
	sim = await startTestSim({
		apiKey: key,
		endpoints: [
			{id: 'echo', workersMin: 3, workersMax: 3, flashBoot: true},
			{id: 'quiet', workersMin: 1, workersMax: 1, flashBoot: true},
			{id: 'broken', workersMin: 1, workersMax: 1, flashBoot: true},
			{id: 'sync', workersMin: 2, workersMax: 2, flashBoot: true},
			{id: 'faulty', workersMin: 2, workersMax: 2, flashBoot: true},
			{id: 'black-forest-labs-flux-1-schnell', worker: 'flux-schnell', workersMin: 1, workersMax: 1, flashBoot: true},
		],
	});
});

afterAll(async () => sim.close());

const env = (extra: Record<string, string> = {}) => cliEnv({RUNPOD_API_KEY: key, XDG_STATE_HOME: state, ...extra});
const urls = () => ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`];
const load = async (args: readonly string[], extra: Record<string, string> = {}) => runCli(['load', ...args, ...urls()], env(extra), 60_000);
const stats = async (endpointId: string) => ((await sim.call('GET', '/__sim/stats')).body.endpoints[endpointId] ?? {}) as Record<string, {requests: number}>;
const requests = async (endpointId: string, operation: string) => (await stats(endpointId))[operation]?.requests ?? 0;

type SimJob = {status: string; delayTime: number | null; executionTime: number | null};
const simJobs = async (endpointId: string) => (await sim.call('GET', `/__sim/jobs/${endpointId}`)).body.jobs as SimJob[];

/** Nearest rank, as podtop's histogram counts it. */
function percentile(values: readonly number[], p: number): number {
	const sorted = values.toSorted((a, b) => a - b);
	return sorted[Math.max(1, Math.ceil((p / 100) * sorted.length)) - 1]!;
}

const auditLines = () =>
	readFileSync(auditPath, 'utf8')
		.trimEnd()
		.split('\n')
		.map(line => JSON.parse(line) as Record<string, any>);

describe('podtop load over real HTTP', () => {
	test('--json: one summary whose counts are the simulator’s request counters and whose percentiles are its job records’ within 1 ms', async () => {
		// No delay_ms: the echo worker takes 50–400 ms, so the percentiles differ.
		const {code, stdout, stderr} = await load(['echo', '--input', '{"payload": "x"}', '--jobs', '40', '--rate', '10/s', '--yes', '--json']);
		expect(stderr).toBe('podtop: load sends 40 jobs to echo at 10/s (over 4 s) through /run, each sent once\n');
		expect(code).toBe(0);
		expect(stdout.trim().split('\n')).toHaveLength(1);
		const summary = JSON.parse(stdout);
		expect(summary).toMatchObject({
			endpointId: 'echo',
			route: '/run',
			planned: 40,
			stopped: 'planned',
			unfinished: 0,
			jobs: {attempted: 40, sent: 40, completed: 40, failed: 0, queued: 0, running: 0, submitErrors: 0},
			coldStarts: {rule: expect.stringContaining('a cold start is a job whose queue delay')},
		});
		expect(summary.requests.submit).toBe(await requests('echo', 'run'));
		expect(summary.requests.status).toBe(await requests('echo', 'status'));
		expect(summary.requests.status).toBeGreaterThanOrEqual(40);

		const jobs = await simJobs('echo');
		expect(jobs).toHaveLength(40);
		expect(jobs.filter(job => job.status === 'COMPLETED')).toHaveLength(summary.jobs.completed);
		const delays = jobs.map(job => job.delayTime!);
		const executions = jobs.map(job => job.executionTime!);
		const totals = jobs.map(job => job.delayTime! + job.executionTime!);
		for (const [name, values] of [
			['delay', delays],
			['execution', executions],
			['total', totals],
		] as const) {
			for (const p of [50, 90, 95, 99] as const) {
				expect(Math.abs(summary[name][`p${p}`] - percentile(values, p)), `${name} p${p}`).toBeLessThanOrEqual(1);
			}

			expect(summary[name].max).toBe(Math.max(...values));
			expect(summary[name].count).toBe(40);
		}

		expect(summary.histogram.bars.reduce((sum: number, bar: {count: number}) => sum + bar.count, 0)).toBe(40);
		// One write in the audit log for the whole run, with its count and summary, never the input.
		const line = auditLines().at(-1)!;
		expect(line).toMatchObject({operation: 'endpoint.load', target: {endpointId: 'echo'}, outcome: 'ok', count: 40, summary: {sent: 40, completed: 40}});
		expect(JSON.stringify(line)).not.toContain('payload');
	});

	test('a rate over the budget is refused before anything is sent, saying the most it may send', async () => {
		const refused = await load(['quiet', '--input', '{}', '--rate', '11/s', '--yes']);
		expect(refused.code).toBe(2);
		expect(refused.stderr).toContain('at --budget 0.1 it may send at most 10/s (100 per 10 s)');
		const sync = await load(['quiet', '--input', '{}', '--rate', '30/s', '--sync', '--budget', '0.1', '--yes']);
		expect(sync.code).toBe(2);
		expect(sync.stderr).toContain('share of /runsync: at --budget 0.1 it may send at most 20/s');
		expect(await stats('quiet')).toEqual({});
	});

	test('without a terminal and without --yes: exit 2 saying to add --yes; read-only (flag or environment): exit 6; nothing sent', async () => {
		const unasked = await load(['quiet', '--input', '{}', '--jobs', '3']);
		expect(unasked.code).toBe(2);
		expect(unasked.stderr).toMatch(/would send 3 jobs to quiet .*: add --yes/);
		const flag = await load(['quiet', '--input', '{}', '--jobs', '3', '--yes', '--read-only']);
		expect(flag.code).toBe(6);
		expect(flag.stderr).toContain('read-only mode: did not send a load of jobs to quiet');
		const environment = await load(['quiet', '--input', '{}', '--jobs', '3', '--json'], {PODTOP_READ_ONLY: '1'});
		expect(environment.code).toBe(6);
		expect(JSON.parse(environment.stdout)).toMatchObject({outcome: 'read-only'});
		expect(await stats('quiet')).toEqual({});
		expect(auditLines().at(-1)).toMatchObject({operation: 'endpoint.load', outcome: 'read-only'});
	});

	test('failed jobs: exit 1, errors grouped by message and sanitised; an unknown endpoint is exit 4', async () => {
		const input = JSON.stringify({delay_ms: 20, error: 'CUDA out of memory \u001B[31mred\u0007'});
		const {code, stdout} = await load(['broken', '--input', input, '--jobs', '6', '--rate', '10/s', '--yes', '--json']);
		expect(code).toBe(1);
		const summary = JSON.parse(stdout);
		expect(summary.jobs).toMatchObject({sent: 6, failed: 6, completed: 0});
		expect(summary.errors).toEqual([{message: 'CUDA out of memory ␛[31mred^G', count: 6}]);
		const text = await load(['broken', '--input', input, '--jobs', '2', '--rate', '10/s', '--yes']);
		expect(text.code).toBe(1);
		expect(text.stdout).toMatch(/errors\n\s+2 {2}CUDA out of memory ␛\[31mred\^G\n$/);
		expect(text.stdout).not.toContain('\u001B');

		const missing = await load(['nope', '--input', '{}', '--jobs', '5', '--yes']);
		expect(missing.code).toBe(4);
		expect(missing.stderr).toContain('no endpoint "nope" in this account');
		expect(missing.stdout).toBe('');
	});

	test('a failed submit is counted as an error and never sent again: 503s, a reset connection and a 429 cost one request each', async () => {
		for (const fault of [
			{kind: 'status', status: 503, operation: 'run', endpoint: 'faulty', count: 2},
			{kind: 'reset', operation: 'run', endpoint: 'faulty', count: 1},
			{kind: 'status', status: 429, operation: 'run', endpoint: 'faulty', count: 1},
		]) {
			expect((await sim.call('POST', '/__sim/faults', {body: fault})).status).toBe(200);
		}

		const {code, stdout} = await load(['faulty', '--input', '{"delay_ms": 10}', '--jobs', '10', '--rate', '10/s', '--yes', '--json']);
		expect(code).toBe(1);
		const summary = JSON.parse(stdout);
		expect(summary.jobs).toMatchObject({attempted: 10, sent: 6, submitErrors: 4, completed: 6});
		expect(await requests('faulty', 'run')).toBe(10);
		expect(summary.requests.submit).toBe(10);
		expect(summary.errors.reduce((sum: number, group: {count: number}) => sum + group.count, 0)).toBe(4);
		expect((await simJobs('faulty')).length).toBe(6);
	});

	test('--sync: the answers are the results, so no status reads; the text summary has the table, histogram, cold starts and throughput', async () => {
		const {code, stdout} = await load(['sync', '--input', '{"delay_ms": 30}', '--jobs', '8', '--rate', '10/s', '--sync', '--yes']);
		expect(code).toBe(0);
		expect(stdout).toMatch(/^sync: 8 of 8 jobs at 10\/s through \/runsync in /);
		expect(stdout).toMatch(/jobs {8}sent 8 {2}queued 0 {2}running 0 {2}done 8 {2}failed 0\n/);
		expect(stdout).toMatch(/\s+p50\s+p90\s+p95\s+p99\s+max\ndelay\s.*\nexecution\s.*\ntotal\s/);
		expect(stdout).toContain('histogram of the total time');
		expect(stdout).toMatch(/cold starts \d+ \(a cold start is/);
		expect(stdout).toMatch(/throughput {2}[\d.]+\/s ended/);
		expect(stdout).toContain('requests    /runsync 8  /status 0');
		expect(await requests('sync', 'runsync')).toBe(8);
		expect(await requests('sync', 'status')).toBe(0);
	});

	test('an image model: the exact cost is said before sending; a parameter the service would refuse is refused here', async () => {
		const input = JSON.stringify({prompt: 'a red fox', width: 512, height: 512});
		const {code, stderr} = await load(['black-forest-labs-flux-1-schnell', '--input', input, '--jobs', '3', '--rate', '5/s', '--yes', '--json']);
		expect(code).toBe(0);
		// 512 × 512 at 0.0024 $/MP = $0.000629146 (rounded up after the 10th decimal), three times.
		expect(stderr).toContain('3 × $0.0006291456 = $0.0018874368');
		const bad = await load(['black-forest-labs-flux-1-schnell', '--input', '{"prompt": "x", "width": 500}', '--jobs', '3', '--yes']);
		expect(bad.code).toBe(2);
		expect(bad.stderr).toContain('width must be a multiple of 16');
	});

	test('the run is in history’s timeline as a load event with its summary (podtop events --type load)', async () => {
		const agent = spawn(process.execPath, [cliPath, 'agent', ...urls()], {env: env()});
		const agentDone = collect(agent, 60_000);
		try {
			const event = await waitFor(
				async () => {
					const {stdout} = await runCli(['events', '--since', '1h', '--type', 'load', '--jsonl', ...urls()], env());
					return stdout
						.trimEnd()
						.split('\n')
						.filter(Boolean)
						.map(line => JSON.parse(line) as {type: string; subject: string; data: {count?: number; summary?: Record<string, any>}})
						.find(candidate => candidate.subject === 'echo');
				},
				30_000,
				1000,
			);
			expect(event).toMatchObject({type: 'load', subject: 'echo', data: {operation: 'endpoint.load', outcome: 'ok', count: 40}});
			expect(event.data.summary).toMatchObject({sent: 40, completed: 40, coldStarts: expect.any(Number), total: {p50: expect.any(Number)}});
			const table = await runCli(['events', '--since', '1h', '--type', 'load', ...urls()], env());
			expect(table.stdout).toMatch(/load\s+endpoint echo\s+40 jobs at 10\/s: 40 done, 0 failed total p50 \S+ p95 \S+ p99 \S+, \d+ cold starts/);
		} finally {
			agent.kill('SIGTERM');
			await agentDone;
		}
	}, 60_000);
});

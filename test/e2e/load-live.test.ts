import {mkdtempSync, readFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, test} from 'vitest';
import {startTestSim, type TestSim} from '../helpers/sim-client.js';
import {hasTmux, TmuxSession} from '../helpers/tmux.js';

let session: TmuxSession | undefined;
let sim: TestSim | undefined;
afterEach(async () => {
	session?.close();
	session = undefined;
	await sim?.close();
	sim = undefined;
});

const requests = async (endpointId: string, operation: string) =>
	((await sim!.call('GET', '/__sim/stats')).body.endpoints[endpointId]?.[operation]?.requests as number | undefined) ?? 0;
const simJobs = async (endpointId: string) => (await sim!.call('GET', `/__sim/jobs/${endpointId}`)).body.jobs as Array<{status: string}>;

function start(columns: number, rows: number, args: readonly string[]): string {
	const state = mkdtempSync(path.join(tmpdir(), 'podtop-tmux-load-'));
	session = new TmuxSession(columns, rows, ['load', ...args, '--api-url', `${sim!.url}/v2`, '--graphql-url', `${sim!.url}/graphql`], {
		RUNPOD_API_KEY: sim!.apiKey,
		XDG_STATE_HOME: state,
	});
	return state;
}

describe.runIf(hasTmux)('podtop load in a real terminal', () => {
	test('asks y/N, then a live view no taller than the terminal less a row; the summary on the main screen at the end', async () => {
		sim = await startTestSim({endpoints: [{id: 'echo', workersMin: 2, workersMax: 2, flashBoot: true}]});
		const state = start(100, 16, ['echo', '--input', `'{"delay_ms": 300}'`, '--jobs', '20', '--rate', '5/s']);
		let screen = await session!.waitFor(/Send\? \[y\/N]/);
		expect(screen).toContain('podtop: load sends 20 jobs to echo at 5/s (over 4 s) through /run, each sent once');
		expect(await requests('echo', 'run')).toBe(0);
		session!.type('y');
		screen = await session!.waitFor(/podtop load · echo · \/run · 5\/s[\s\S]*done [1-9]/);
		expect(screen).toMatch(/^\d+\/20 · sent \d+ {2}queued \d+ {2}running \d+ {2}done \d+ {2}failed 0$/m);
		expect(screen).toMatch(/^ +p50 +p90 +p95 +p99 +max$/m);
		expect(screen).toMatch(/^execution +\d+ms/m);
		expect(screen).toContain('Ctrl-C stop sending');
		// 16 rows: the histogram gives way, the footer stays on screen and the last row stays free (a frame of at most rows - 1).
		const lines = screen.replace(/\n$/, '').split('\n');
		expect(lines).toHaveLength(16);
		expect(lines.slice(0, 15).join('\n')).toMatch(
			/histogram of the total time\n(?:.+\n)*cold starts \d+ \(delay > 3× warm \+ 1 s, new worker\)\nCtrl-C stop sending/,
		);
		expect(lines[15]).toBe('');
		screen = await session!.waitFor(/PODTOP-EXIT 0/, 20_000);
		// The summary's end is on the main screen (its start scrolled up a 16-row terminal); the audit log has the rest.
		expect(screen).toMatch(/^throughput {2}[\d.]+\/s ended, [\d.]+\/s sent$/m);
		const audit = JSON.parse(readFileSync(path.join(state, 'podtop', 'audit.jsonl'), 'utf8')) as unknown;
		expect(audit).toMatchObject({operation: 'endpoint.load', count: 20, summary: {sent: 20, completed: 20, failed: 0, stopped: 'planned'}});
		expect(await requests('echo', 'run')).toBe(20);
		expect(screen).toContain(`requests    /run 20  /status ${await requests('echo', 'status')}`);
	}, 60_000);

	test('Ctrl-C with jobs queued: sending stops, it says how many are queued, y cancels them (per the simulator); nothing is sent again', async () => {
		sim = await startTestSim({endpoints: [{id: 'single', workersMin: 1, workersMax: 1, flashBoot: true}]});
		const state = start(100, 30, ['single', '--input', `'{"delay_ms": 5000}'`, '--jobs', '100', '--rate', '5/s', '--budget', '0.5', '--yes']);
		await session!.waitFor(/sent ([6-9]|\d\d) /);
		session!.send('C-c');
		const screen = await session!.waitFor(/\d+ jobs still queued: cancel them\? \[y\/N]/);
		const queued = Number(/(\d+) jobs still queued/.exec(screen)![1]);
		expect(queued).toBeGreaterThanOrEqual(4);
		session!.type('y');
		// The running job is followed to its end, then the summary.
		const end = await session!.waitFor(/PODTOP-EXIT \d+/, 30_000);
		const sent = await requests('single', 'run');
		expect(end).toMatch(new RegExp(String.raw`^single: ${sent} of 100 jobs at 5/s through /run in \S+ \(interrupted: sending stopped\)$`, 'm'));
		expect(end).toMatch(/PODTOP-EXIT 0/);
		// A submit in flight at Ctrl-C may add one queued job after the question: every queued one is cancelled.
		const cancelled = Number(/cancelled (\d+)/.exec(end)![1]);
		expect(cancelled).toBeGreaterThanOrEqual(queued);
		expect(cancelled).toBeLessThan(sent);
		const jobs = await simJobs('single');
		expect(jobs).toHaveLength(sent);
		expect(jobs.filter(job => job.status === 'CANCELLED')).toHaveLength(cancelled);
		expect(jobs.filter(job => job.status === 'IN_QUEUE' || job.status === 'IN_PROGRESS')).toHaveLength(0);
		expect(await requests('single', 'cancel')).toBe(cancelled);
		// Nothing was sent after the run ended, and the audit log holds one write for the run.
		await new Promise(resolve => setTimeout(resolve, 500));
		expect(await requests('single', 'run')).toBe(sent);
		const audit = readFileSync(path.join(state, 'podtop', 'audit.jsonl'), 'utf8')
			.trim()
			.split('\n');
		expect(audit).toHaveLength(1);
		expect(JSON.parse(audit[0]!)).toMatchObject({operation: 'endpoint.load', outcome: 'ok', count: sent, summary: {cancelled, stopped: 'interrupted'}});
	}, 60_000);
});

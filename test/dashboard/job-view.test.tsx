import {afterEach, describe, expect, test} from 'vitest';
import {App} from '../../source/dashboard/app.js';
import type {Engine, EngineOptions} from '../../source/engine/create-engine.js';
import {defaultCadence} from '../../source/poll/cadence.js';
import type {StartSimulatorOptions} from '../../source/sim/start-simulator.js';
import {engineFor, simStats} from '../helpers/engine.js';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';
import {frameMatching, renderWith, tick} from '../helpers/ui-fixture.js';

let sim: TestSim | undefined;
let engine: Engine | undefined;
afterEach(async () => {
	await engine?.close();
	await sim?.close();
	engine = undefined;
	sim = undefined;
});

const echo = {id: 'ep-echo', name: 'echo', workersMin: 1, workersMax: 1, flashBoot: true};

async function dashboard(simOptions: StartSimulatorOptions = {}, engineOptions: Omit<EngineOptions, 'target'> = {}, shown = /echo/) {
	sim = await startTestSim({endpoints: [echo], ...simOptions});
	engine = await engineFor(sim, {poll: ['endpoints', 'jobs'], budget: {graphqlPerWindow: 50}, ...engineOptions});
	engine.start();
	const rendered = renderWith({store: engine.store}, <App readOnly={false} />, {engine});
	await frameMatching(rendered.lastFrame, shown);
	return {...rendered, sim};
}

/** The job view's parts in a frame: its title's right end, its status line, its chunk count and the rows of text under its rule. */
function jobFrame(frame: string) {
	const lines = frame.split('\n');
	const rule = lines.findIndex(line => /^─{20,}$/.test(line));
	const footer = lines.findIndex((line, index) => index > rule && line.startsWith('Esc back · '));
	return {
		title: lines[rule - 3] ?? '',
		status: lines[rule - 2] ?? '',
		chunks: Number(/chunks (\d+)/.exec(lines[rule - 1] ?? '')?.[1] ?? Number.NaN),
		unseen: Number(/▼ (\d+) unseen lines?/.exec(lines[rule - 3] ?? '')?.[1] ?? 0),
		text: lines.slice(rule + 1, footer),
	};
}

/** Every frame drawn until one matches `end` (checked every few ms), then that one. */
async function framesUntil(lastFrame: () => string | undefined, end: RegExp, timeoutMs = 15_000): Promise<string[]> {
	const frames: string[] = [];
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const frame = lastFrame() ?? '';
		if (frames.at(-1) !== frame) {
			frames.push(frame);
		}

		if (end.test(frame)) {
			return frames;
		}

		await tick(5);
	}

	throw new Error(`frame never matched ${end}:\n${lastFrame()}`);
}

describe('the job view', () => {
	test('scrolling up pauses a stream: the same lines stay on screen as more arrive, the unseen count grows with each, G follows again', async () => {
		const {lastFrame, stdin, sim} = await dashboard();
		const stream = Array.from({length: 300}, (_, index) => `line ${String(index + 1).padStart(3, '0')}\n`);
		const jobId = await sim.run('ep-echo', {stream, delay_ms: 30_000});
		stdin.write(`:job ep-echo ${jobId}\r`);
		await frameMatching(lastFrame, /line 040/, 15_000);
		for (const key of 'kkk') {
			stdin.write(key);
			await tick(5);
		}

		const paused = jobFrame(await frameMatching(lastFrame, /▼ 3 unseen lines · G to follow/));
		expect(paused.text[0]).toMatch(/^line \d{3}$/);
		// Ten more lines arrive while paused.
		const later = jobFrame(await waitFor(() => (jobFrame(lastFrame() ?? '').chunks >= paused.chunks + 10 ? lastFrame() : undefined), 15_000));
		expect(later.text).toEqual(paused.text);
		expect(later.unseen - paused.unseen).toBe(later.chunks - paused.chunks);
		expect(later.title).toMatch(/G to follow$/);
		stdin.write('G');
		const following = jobFrame(await frameMatching(lastFrame, /following/));
		const shown = following.text.findLast(line => /^line \d{3}$/.test(line));
		expect(Number(shown?.slice(5))).toBeGreaterThanOrEqual(later.chunks);
	}, 60_000);

	test('a cancelled job says it ended and how, not that it is following or waiting for output', async () => {
		const {lastFrame, stdin, sim} = await dashboard();
		await sim.run('ep-echo', {delay_ms: 600_000});
		const queued = await sim.run('ep-echo', {delay_ms: 10});
		stdin.write(`:job ep-echo ${queued}\r`);
		await frameMatching(lastFrame, /IN_QUEUE/, 10_000);
		stdin.write('c');
		await frameMatching(lastFrame, /Cancel job \S+ on echo\? y\/N/);
		stdin.write('y');
		const cancelled = jobFrame(await frameMatching(lastFrame, /CANCELLED/, 10_000));
		expect(cancelled.title).toMatch(/ended: cancelled$/);
		expect(cancelled.title).not.toMatch(/following/);
		expect(cancelled.text[0]).toBe('cancelled without output');
		expect(lastFrame()).not.toMatch(/waiting for output/);
	}, 30_000);

	test("a retried job shows its new attempt only: the attempt before's delay, execution time, worker, error and output are gone", async () => {
		const {lastFrame, stdin, sim} = await dashboard();
		const failing = await sim.run('ep-echo', {error: 'boom', delay_ms: 200});
		stdin.write(`:job ep-echo ${failing}\r`);
		const failed = jobFrame(await frameMatching(lastFrame, /FAILED · delay \S+ · execution \d\S* · worker \w+/, 10_000));
		expect(failed.text).toContain('error: boom');
		// The one worker busy: the retry waits in the queue.
		const blocker = await sim.run('ep-echo', {delay_ms: 600_000});
		await waitFor(async () => (await sim.status('ep-echo', blocker)).body.status === 'IN_PROGRESS');
		stdin.write('R');
		await frameMatching(lastFrame, /Retry job \S+ on echo\? y\/N/);
		stdin.write('y');
		const retried = jobFrame(await frameMatching(lastFrame, /^IN_QUEUE/m, 10_000));
		expect(retried.status).toBe('IN_QUEUE · delay – · execution – · worker –');
		expect(retried.title).toMatch(/following$/);
		expect(retried.text[0]).toBe('waiting for output…');
		expect(lastFrame()).not.toMatch(/boom/);
		// Its worker free again, the new attempt fails as the first did, and reports its own figures.
		await sim.call('POST', `/v2/ep-echo/cancel/${blocker}`);
		const again = jobFrame(await frameMatching(lastFrame, /FAILED · delay \S+ · execution \d\S* · worker \w+/, 10_000));
		expect(again.text).toContain('error: boom');
	}, 30_000);

	test('starting a chat never shows a 404: the chat is its answer, no job to ask /stream about', async () => {
		const llm = {id: 'ep-llm', name: 'llama', worker: 'text-generation' as const, workersMin: 1, workersMax: 1, flashBoot: true};
		const {lastFrame, stdin, sim} = await dashboard({speed: 20, endpoints: [llm]}, {}, /llama/);
		stdin.write('t');
		await frameMatching(lastFrame, /Send a test job to llama\? y\/N/);
		stdin.write('c');
		const frames = await framesUntil(lastFrame, /COMPLETED/);
		expect(frames.filter(frame => /not found|HTTP 404/.test(frame))).toEqual([]);
		expect((await simStats(sim))['ep-llm']!.stream).toBeUndefined();
	}, 30_000);

	test('a job this client just submitted that the service does not know yet is waiting to start, not an error', async () => {
		const {lastFrame, stdin, sim} = await dashboard();
		// The service answers /stream 404 three times before it knows the job.
		await sim.call('POST', '/__sim/faults', {body: {kind: 'status', status: 404, operation: 'stream', endpoint: 'ep-echo', count: 3}});
		stdin.write('t');
		await frameMatching(lastFrame, /Send a test job to echo\? y\/N/);
		stdin.write('y');
		const frames = await framesUntil(lastFrame, /COMPLETED/);
		expect(frames.filter(frame => /not found|HTTP 404/.test(frame))).toEqual([]);
		expect(frames.some(frame => /IN_QUEUE · .* · waiting for the job to start/.test(frame))).toBe(true);
		expect((await simStats(sim))['ep-echo']!.stream!.requests).toBeGreaterThan(3);
	}, 30_000);

	test('a job this client submitted that stays unknown past the grace is gone: then the 404 is said', async () => {
		const {lastFrame, stdin, sim} = await dashboard({}, {cadence: {...defaultCadence, jobStartGraceMs: 1500}});
		await sim.call('POST', '/__sim/faults', {
			body: [
				{kind: 'status', status: 404, operation: 'stream', endpoint: 'ep-echo', share: 1},
				{kind: 'status', status: 404, operation: 'status', endpoint: 'ep-echo', share: 1},
			],
		});
		stdin.write('t');
		await frameMatching(lastFrame, /Send a test job to echo\? y\/N/);
		stdin.write('y');
		const frames = await framesUntil(lastFrame, /⚠ not found: stream /);
		const waiting = frames.findIndex(frame => frame.includes('waiting for the job to start'));
		expect(waiting).toBeGreaterThanOrEqual(0);
		expect(frames.findIndex(frame => frame.includes('not found'))).toBeGreaterThan(waiting);
	}, 30_000);
});

import {afterEach, describe, expect, test} from 'vitest';
import {App} from '../../source/dashboard/app.js';
import type {Engine} from '../../source/engine/create-engine.js';
import {engineFor} from '../helpers/engine.js';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';
import {frameMatching, health, renderWith, testStore, tick} from '../helpers/ui-fixture.js';

function filledStore() {
	const state = testStore();
	const {writes} = state;
	writes.setEndpoints(
		[
			{
				id: 'ep-llm',
				name: 'llama-vllm',
				workersMin: 1,
				workersMax: 5,
				gpuIds: 'ADA_24',
				scalerType: 'QUEUE_DELAY',
				scalerValue: 4,
				idleTimeout: 30,
				locations: 'US',
			},
			{id: 'ep-echo', name: 'echo', workersMin: 0, workersMax: 1},
		],
		0,
	);
	writes.setHealth('ep-llm', health({inQueue: 3}), 0);
	writes.setHealth('ep-echo', health({inQueue: 0}), 0);
	writes.setPods(
		[{id: 'p1', name: 'trainer', desiredStatus: 'RUNNING', gpuCount: 1, machine: {gpuDisplayName: 'H100'}, runtime: {gpus: [{gpuUtilPercent: 95}]}}],
		0,
	);
	writes.setGpuTypes([{id: 'NVIDIA L4', displayName: 'L4', lowestPrice: {stockStatus: 'Low', maxUnreservedGpuCount: 2}}], 0);
	writes.reportSource('jobApi', Date.now());
	writes.reportSource('graphql', Date.now());
	return state;
}

const keys = {tab: '\t', enter: '\r', escape: '\u001B', down: '\u001B[B', ctrlC: '\u0003'};

let sim: TestSim | undefined;
let engine: Engine | undefined;
afterEach(async () => {
	await engine?.close();
	await sim?.close();
	engine = undefined;
	sim = undefined;
});

describe('App', () => {
	test('Tab and 1/2/3 switch panes; the selection moves over the rows shown, sorted by name', async () => {
		const {lastFrame, stdin, view} = renderWith(filledStore(), <App readOnly={false} />);
		await frameMatching(lastFrame, /Endpoints \(2\)/);
		stdin.write('j');
		await tick();
		// Rows are in natural name order: echo, then llama-vllm.
		expect(view.getState().selected.endpoints.key).toBe('ep-llm');
		stdin.write(keys.tab);
		await frameMatching(lastFrame, /Pods \(1\)/);
		stdin.write('3');
		await frameMatching(lastFrame, /GPUs \(1\)/);
		stdin.write('1');
		await frameMatching(lastFrame, /Endpoints \(2\)/);
		expect(view.getState().selected.endpoints.key).toBe('ep-llm');
	});

	test('/ filters, Esc clears; ? opens help; : runs commands; typed-ahead text lands in the bar', async () => {
		const {lastFrame, stdin} = renderWith(filledStore(), <App readOnly={false} />);
		await tick();
		stdin.write('/');
		await tick();
		stdin.write('echo');
		await frameMatching(lastFrame, /\/echo/);
		stdin.write(keys.enter);
		await frameMatching(lastFrame, /Endpoints \(1\/2\) \/echo/);
		stdin.write(keys.escape);
		await frameMatching(lastFrame, /Endpoints \(2\)/);
		stdin.write('?');
		await frameMatching(lastFrame, /Keys: Endpoints \(Esc or \? to close\)/);
		stdin.write(keys.escape);
		await tick();
		stdin.write(':');
		await tick();
		stdin.write('gp');
		await tick();
		stdin.write('\t');
		await frameMatching(lastFrame, /:gpus/);
		stdin.write(keys.enter);
		await frameMatching(lastFrame, /GPUs \(1\)/);
		// Keys faster than one read: `:` and the command arrive together.
		stdin.write(':frobnicate\r');
		await frameMatching(lastFrame, /unknown command ":frobnicate"/);
	});

	test('the palette shows what the word typed may be; Tab completes commands, endpoint names, their tracked jobs, and again goes round them', async () => {
		const state = filledStore();
		state.writes.trackJob('ep-llm', 'job-1');
		state.writes.trackJob('ep-llm', 'job-2');
		const {lastFrame, stdin} = renderWith(state, <App readOnly={false} />);
		await frameMatching(lastFrame, /Endpoints \(2\)/);
		stdin.write(':');
		await frameMatching(lastFrame, /^commands {2}endpoints {2}pods {2}gpus {2}quit {2}help/m);
		stdin.write('p');
		let frame = await frameMatching(lastFrame, /^commands {2}pods {2}profile\s*$/m);
		expect(frame).not.toMatch(/gpus {2}/);
		// `p` is all that pods and profile share: Tab puts in the first, and again the next, round.
		stdin.write('\t');
		await frameMatching(lastFrame, /^:pods /m);
		stdin.write('\t');
		await frameMatching(lastFrame, /^:profile /m);
		stdin.write('\t');
		await frameMatching(lastFrame, /^:pods /m);
		// Typing ends the round: the word is what was typed.
		stdin.write('\u007F\u007F\u007F\u007F');
		await frameMatching(lastFrame, /^: {3}/m);
		stdin.write('job ');
		await frameMatching(lastFrame, /^<endpoint> {2}echo {2}llama-vllm\s*$/m);
		stdin.write('l');
		await tick();
		stdin.write('\t');
		frame = await frameMatching(lastFrame, /^<job> {2}job-1 {2}job-2\s*$/m);
		expect(frame).toMatch(/^:job llama-vllm {3}/m);
		// What they share first, then each in turn.
		stdin.write('\t');
		await frameMatching(lastFrame, /^:job llama-vllm job- {3}/m);
		stdin.write('\t');
		await frameMatching(lastFrame, /^:job llama-vllm job-1 /m);
		stdin.write('\t');
		await frameMatching(lastFrame, /^:job llama-vllm job-2 /m);
		// The endpoint named opens: its name is taken as an id is.
		stdin.write('\r');
		await frameMatching(lastFrame, /Job job-2 on ep-llm/);
	});

	test('the filter applies as it is typed, over the fields shown (not the id or GPU pools), says which; Enter keeps it, Esc clears it; a broken regex keeps the rows', async () => {
		const state = testStore();
		state.writes.setEndpoints(
			[
				{id: 'xt1gzq19i1floi', name: 'embeddings-bge-m3', gpuIds: 'AMPERE_48,ADA_24'},
				{id: 'ep-llama', name: 'llama-3-8b', gpuIds: 'ADA_24'},
				{id: 'ep-echo', name: 'echo', gpuIds: 'CPU'},
			],
			0,
		);
		const {lastFrame, stdin} = renderWith(state, <App readOnly={false} />);
		await frameMatching(lastFrame, /Endpoints \(3\)/);
		stdin.write('/');
		await frameMatching(lastFrame, /^\/ .*in name · regex, ! inverts · Enter keeps · Esc clears/m);
		// Each key narrows the rows at once, before Enter.
		stdin.write('l');
		await frameMatching(lastFrame, /Endpoints \(1\/3\) \/l/);
		stdin.write('.*a');
		let frame = await frameMatching(lastFrame, /Endpoints \(1\/3\) \/l\.\*a/);
		// The id (…1floi) and the pools (ADA_24) are not on screen, so they do not keep embeddings-bge-m3.
		expect(frame).toMatch(/llama-3-8b/);
		expect(frame).not.toMatch(/embeddings/);
		stdin.write('\r');
		await frameMatching(lastFrame, /j move · \/ filter/);
		expect(lastFrame()).toMatch(/Endpoints \(1\/3\) \/l\.\*a/);
		// Not a regex: it says so, and the rows of the last filter stay; Enter keeps that one.
		stdin.write('/');
		await tick();
		stdin.write('[');
		frame = await frameMatching(lastFrame, /not a regex \(Unterminated character class\): the rows of \/l\.\*a stay/);
		expect(frame).toMatch(/Endpoints \(1\/3\) \/l\.\*a/);
		stdin.write('\r');
		await frameMatching(lastFrame, /not a regex \(Unterminated character class\): the filter stays \/l\.\*a/);
		// Esc in the bar clears it (Ink holds a lone Esc 20 ms to see whether a sequence follows).
		stdin.write('/');
		await tick();
		stdin.write('ech');
		await frameMatching(lastFrame, /Endpoints \(0\/3\) \/l\.\*aech/);
		stdin.write(keys.escape);
		await frameMatching(lastFrame, /Endpoints \(3\)/);
	});

	test('the message line is cleared by the next action that goes ahead, and replaced by one that is refused', async () => {
		const {lastFrame, stdin} = renderWith(filledStore(), <App readOnly={false} />);
		await tick();
		stdin.write(':frobnicate\r');
		await frameMatching(lastFrame, /unknown command ":frobnicate"/);
		stdin.write('s');
		await frameMatching(lastFrame, /j move · \/ filter · s sort/);
		expect(lastFrame()).not.toMatch(/unknown command/);
		stdin.write(':job\r');
		await frameMatching(lastFrame, /usage: :job/);
		stdin.write('j');
		await frameMatching(lastFrame, /j move · \/ filter · s sort/);
	});

	test('Enter drills into an endpoint; Esc goes back; :job opens a job view at once', async () => {
		const {lastFrame, stdin} = renderWith(filledStore(), <App readOnly={false} />);
		await tick();
		stdin.write('j');
		await tick();
		stdin.write(keys.enter);
		await frameMatching(lastFrame, /llama-vllm \(ep-llm\)/);
		expect(lastFrame()).toMatch(/pools ADA_24 ×1 · scaler QUEUE_DELAY 4 · idle timeout 30s · workers 1–5 · locations US/);
		stdin.write(keys.escape);
		await frameMatching(lastFrame, /Endpoints \(2\)/);
		stdin.write(':job ep-echo abc-123\r');
		await frameMatching(lastFrame, /Job abc-123 on ep-echo: starting to follow it…/);
	});

	test('t asks first, then sends one test job over real HTTP, follows its stream to COMPLETED, and unfollows on Esc', async () => {
		sim = await startTestSim({endpoints: [{id: 'ep-echo', name: 'echo', workersMin: 1, flashBoot: true}]});
		engine = await engineFor(sim, {poll: ['endpoints', 'jobs'], budget: {graphqlPerWindow: 50}});
		engine.start();
		const {lastFrame, stdin} = renderWith({store: engine.store}, <App readOnly={false} />, {engine});
		await frameMatching(lastFrame, /echo/);
		stdin.write('t');
		await frameMatching(lastFrame, /Send a test job to echo\? y\/N/);
		stdin.write('n');
		await frameMatching(lastFrame, /cancelled: nothing was sent/);
		stdin.write('t');
		await tick();
		stdin.write('y');
		const frame = await frameMatching(lastFrame, /Job \S+ on ep-echo/);
		const jobId = /Job (\S+) on ep-echo/.exec(frame)![1]!;
		await waitFor(() => (lastFrame() ?? '').includes('COMPLETED'), 10_000);
		expect(engine.store.getState().jobs.byKey.get(`ep-echo/${jobId}`)?.follow).toBe(true);
		expect((await sim.call('GET', '/__sim/stats')).body.endpoints['ep-echo'].run.requests).toBe(1);
		stdin.write(keys.escape);
		await tick(50);
		expect(engine.store.getState().jobs.byKey.get(`ep-echo/${jobId}`)?.follow).toBe(false);
	});

	test("c cancels the job on screen after y; P purges only after the endpoint's name is typed", async () => {
		sim = await startTestSim({
			endpoints: [
				{id: 'ep-echo', name: 'echo', workersMin: 1, workersMax: 1, flashBoot: true},
				{id: 'ep-parked', name: 'parked', workersMin: 0, workersMax: 0},
			],
		});
		engine = await engineFor(sim, {poll: ['endpoints', 'jobs'], budget: {graphqlPerWindow: 50}});
		engine.start();
		const running = await sim.run('ep-echo', {delay_ms: 60_000});
		for (let index = 0; index < 4; index++) {
			await sim.run('ep-parked', {delay_ms: 10});
		}

		const {lastFrame, stdin} = renderWith({store: engine.store}, <App readOnly={false} />, {engine});
		await frameMatching(lastFrame, /echo/);
		stdin.write(`:job ep-echo ${running}\r`);
		await waitFor(() => (lastFrame() ?? '').includes('IN_PROGRESS'), 10_000);
		stdin.write('c');
		await frameMatching(lastFrame, new RegExp(String.raw`Cancel job ${running} on echo\? y/N`));
		stdin.write('y');
		await waitFor(() => (lastFrame() ?? '').includes('CANCELLED'), 10_000);
		expect(lastFrame()).toMatch(new RegExp(String.raw`done: cancel job ${running} on echo \(ep-echo\)`));
		stdin.write('c');
		await frameMatching(lastFrame, /is CANCELLED already: nothing to cancel/);
		stdin.write('\u001B');
		await tick(50);
		stdin.write('\u001B');
		await frameMatching(lastFrame, /Endpoints \(2\)/);
		await waitFor(() => engine!.store.getState().endpoints.byId['ep-parked']?.health?.jobs.inQueue === 4, 10_000);
		stdin.write('j');
		await tick();
		stdin.write('P');
		await frameMatching(lastFrame, /Purge 4 queued job\(s\) from the queue of parked\? Running jobs are untouched\.\s[\s\S]*Type "parked" to confirm:/);
		stdin.write('park\r');
		await frameMatching(lastFrame, /not sent: "park" does not match "parked"/);
		expect((await sim.call('GET', '/__sim/stats')).body.endpoints['ep-parked']?.['purge-queue']).toBeUndefined();
		// Still open: the name typed again replaces what was refused.
		stdin.write('parked\r');
		await frameMatching(lastFrame, /purged: 4 queued job\(s\) removed from parked; running jobs untouched/);
		expect((await sim.call('GET', '/__sim/stats')).body.endpoints['ep-parked']['purge-queue'].requests).toBe(1);
		// The queue is empty now: P says there is nothing to purge, and asks for no name.
		await waitFor(() => engine!.store.getState().endpoints.byId['ep-parked']?.health?.jobs.inQueue === 0, 10_000);
		stdin.write('P');
		await frameMatching(lastFrame, /the queue of parked is empty: nothing to purge/);
		expect(lastFrame()).not.toMatch(/Type "parked" to confirm/);
		expect((await sim.call('GET', '/__sim/stats')).body.endpoints['ep-parked']['purge-queue'].requests).toBe(1);
	});

	test('read-only: t is gone, and nothing is sent', async () => {
		sim = await startTestSim({endpoints: [{id: 'ep-echo', name: 'echo', workersMin: 1}]});
		engine = await engineFor(sim, {poll: ['endpoints'], readOnly: true, budget: {graphqlPerWindow: 50}});
		engine.start();
		const {lastFrame, stdin} = renderWith({store: engine.store}, <App readOnly />, {engine});
		await frameMatching(lastFrame, /echo/);
		expect(lastFrame()).toMatch(/READ-ONLY/);
		expect(lastFrame()).not.toMatch(/t test job/);
		stdin.write('t');
		// The key is refused in words, not silently.
		await frameMatching(lastFrame, /read-only mode: t test job is off/);
		expect(lastFrame()).not.toMatch(/Send a test job/);
		stdin.write('?');
		await frameMatching(lastFrame, /Keys: Endpoints/);
		expect(lastFrame()).not.toMatch(/send a test job/);
		expect((await sim.call('GET', '/__sim/stats')).body.endpoints['ep-echo']?.run?.requests ?? 0).toBe(0);
	});
});

import {afterEach, expect, test} from 'vitest';
import {App} from '../../source/dashboard/app.js';
import type {Engine} from '../../source/engine/create-engine.js';
import {engineFor} from '../helpers/engine.js';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';
import {frameMatching, renderWith, tick} from '../helpers/ui-fixture.js';

let sim: TestSim | undefined;
let engine: Engine | undefined;
afterEach(async () => {
	await engine?.close();
	await sim?.close();
});

const keys = {enter: '\r', escape: '\u001B', backspace: '\u007F'};

const purges = async () => ((await sim!.call('GET', '/__sim/stats')).body.endpoints['ep-parked']?.['purge-queue']?.requests as number | undefined) ?? 0;

test('a typed confirmation stays open until the name matches: a wrong answer says so, and nothing typed into it reaches the dashboard', async () => {
	sim = await startTestSim({
		endpoints: [
			{id: 'ep-echo', name: 'echo', workersMin: 0, workersMax: 1},
			{id: 'ep-parked', name: 'parked', workersMin: 0, workersMax: 0},
		],
	});
	for (let index = 0; index < 4; index++) {
		await sim.run('ep-parked', {delay_ms: 10});
	}

	engine = await engineFor(sim, {poll: ['endpoints'], budget: {graphqlPerWindow: 50}});
	engine.start();
	const {lastFrame, stdin, view} = renderWith({store: engine.store}, <App readOnly={false} />, {engine});
	await frameMatching(lastFrame, /Endpoints \(2\)/);
	await waitFor(() => engine!.store.getState().endpoints.byId['ep-parked']?.health?.jobs.inQueue === 4, 10_000);
	stdin.write('j');
	await tick();
	stdin.write('P');
	let frame = await frameMatching(lastFrame, /Type "parked" to confirm:/);
	expect(frame).toMatch(/Purge 4 queued job\(s\) from the queue of parked\? Running jobs are untouched\./);
	expect(frame).toMatch(/✗ does not match yet/);
	// The pane it acts on stays in view above the dialog.
	expect(frame).toMatch(/parked/);

	// The new user's answer: y and Enter. The dialog stays and says why nothing was sent.
	stdin.write('y');
	await tick();
	stdin.write(keys.enter);
	frame = await frameMatching(lastFrame, /not sent: this asks for the name, not "y"\. Type "parked" \(it replaces this\), or Esc to cancel\./);
	expect(frame).toMatch(/Type "parked" to confirm: y/);
	expect(view.getState().overlay).toMatchObject({type: 'confirm', input: 'y', rejected: true});

	// The name, typed next: every key goes into the field (its `e` would edit the endpoint, its `a`… nothing else runs).
	stdin.write('parx');
	frame = await frameMatching(lastFrame, /Type "parked" to confirm: parx/);
	expect(frame).toMatch(/✗ does not match "parked" \(Backspace edits\)/);
	stdin.write(keys.enter);
	frame = await frameMatching(lastFrame, /✗ not sent: "parx" does not match "parked"/);
	expect(view.getState().overlay.type).toBe('confirm');
	expect(await purges()).toBe(0);

	// Backspace edits what was refused; the match shows before Enter.
	stdin.write(keys.backspace);
	await frameMatching(lastFrame, /Type "parked" to confirm: par(?!x)/);
	stdin.write('ked');
	frame = await frameMatching(lastFrame, /✓ matches "parked": Enter confirms/);
	expect(frame).not.toMatch(/Edit endpoint|New job on/);
	expect(await purges()).toBe(0);
	stdin.write(keys.enter);
	await frameMatching(lastFrame, /purged: 4 queued job\(s\) removed from parked; running jobs untouched/);
	expect(view.getState().overlay.type).toBe('none');
	expect(await purges()).toBe(1);

	// Esc cancels, whatever was typed (a queue with a job in it again: an empty one has nothing to purge).
	await sim.run('ep-parked', {delay_ms: 10});
	await waitFor(() => engine!.store.getState().endpoints.byId['ep-parked']?.health?.jobs.inQueue === 1, 10_000);
	stdin.write('P');
	await frameMatching(lastFrame, /Type "parked" to confirm:/);
	stdin.write('parked');
	await frameMatching(lastFrame, /✓ matches/);
	stdin.write(keys.escape);
	await frameMatching(lastFrame, /cancelled: nothing was sent/);
	expect(await purges()).toBe(1);
}, 30_000);

test('a pasted name goes into the field as text, and a y/N question still answers no to any other key', async () => {
	sim = await startTestSim({endpoints: [{id: 'ep-parked', name: 'parked', workersMin: 0, workersMax: 0}]});
	await sim.run('ep-parked', {delay_ms: 10});
	engine = await engineFor(sim, {poll: ['endpoints'], budget: {graphqlPerWindow: 50}});
	engine.start();
	const {lastFrame, stdin, view} = renderWith({store: engine.store}, <App readOnly={false} />, {engine});
	await frameMatching(lastFrame, /Endpoints \(1\)/);
	stdin.write('P');
	await frameMatching(lastFrame, /Type "parked" to confirm:/);
	// One read with a wrong name, Enter, then the right one: as a paste (or fast typing) arrives.
	stdin.write('parkd\r');
	await frameMatching(lastFrame, /not sent: "parkd" does not match "parked"/);
	stdin.write('parked');
	await frameMatching(lastFrame, /✓ matches "parked"/);
	expect(view.getState().overlay).toMatchObject({type: 'confirm', input: 'parked'});
	stdin.write(keys.escape);
	await frameMatching(lastFrame, /cancelled: nothing was sent/);

	stdin.write('t');
	await frameMatching(lastFrame, /Send a test job to parked\? y\/N/);
	stdin.write('x');
	await frameMatching(lastFrame, /cancelled: nothing was sent/);
	expect(view.getState().overlay.type).toBe('none');
	expect(await purges()).toBe(0);
}, 30_000);

import {expect, test} from 'vitest';
import {App} from '../../source/dashboard/app.js';
import {defaultCadence} from '../../source/poll/cadence.js';
import {goneWorkers} from '../../source/rows/worker-rows.js';
import {closedAfterEach, engineFor} from '../helpers/engine.js';
import {startTestSim, waitFor} from '../helpers/sim-client.js';
import {frameMatching, renderWith, tick} from '../helpers/ui-fixture.js';

const running = closedAfterEach();

const fast = {...defaultCadence, healthMs: 300, workersOpenMs: 300, workersQueuedMs: 600, releasesMs: 2000};

test('over real HTTP, a crash-looping worker that the service replaces is a gone worker in the details; its view says so, and its log that the service has it no more', async () => {
	const id = 'crashyendpoint1';
	const sim = await startTestSim({
		speed: 20,
		restQuota: {minute: 10_000, hour: 100_000, day: 1_000_000},
		endpoints: [{id, name: 'crashy', worker: 'echo', workersMin: 1, workersMax: 1, gpuIds: 'ADA_24'}],
		faults: [{kind: 'crash-loop', endpoint: id, cause: 'oom'}],
	});
	running.sim = sim;
	const engine = await engineFor(sim, {poll: ['endpoints', 'gpus', 'workers'], allVisible: true, cadence: fast});
	running.engine = engine;
	engine.start();
	await sim.run(id, {delay_ms: 10});
	const {lastFrame, stdin} = renderWith({store: engine.store}, <App readOnly={false} />, {
		engine,
		view: {views: [{type: 'list'}, {type: 'endpoint', endpointId: id}]},
	});
	// The details watch the endpoint: its workers are read until the first is replaced (three restarts, then another takes its place).
	const gone = await waitFor(
		() => {
			const workers = engine.store.getState().workers.byEndpoint[id];
			return workers ? goneWorkers(workers)[0] : undefined;
		},
		45_000,
		50,
	);
	expect(gone.last?.id).toBe(gone.id);
	expect(['RUNNING', 'THROTTLED']).toContain(gone.status);
	await frameMatching(lastFrame, /Gone workers \(\d+, the newest first/, 10_000);
	expect(lastFrame()).toContain(gone.id);
	stdin.write('w');
	await frameMatching(lastFrame, /w jobs/, 10_000);
	// The last row: the oldest gone worker.
	stdin.write('G');
	await tick(50);
	stdin.write('\r');
	const frame = await frameMatching(lastFrame, /Worker \S+ of crashy \(gone\)/, 10_000);
	const shown = /Worker (\S+) of crashy/.exec(frame)![1]!;
	expect(goneWorkers(engine.store.getState().workers.byEndpoint[id]!).map(each => each.id)).toContain(shown);
	expect(frame).toMatch(/gone: last listed (RUNNING|THROTTLED)/);
	expect(frame).toMatch(/lived \S+ · went between two reads, seen gone \d\d:\d\d:\d\d as jobs waited/);
	expect(frame).toMatch(/gone +no longer listed +seen/);
	expect(frame).toMatch(/restarted \(its uptime reset\) +seen/);
	expect(frame).toMatch(/Tracked jobs it served \(0\)/);
	stdin.write('l');
	await frameMatching(lastFrame, new RegExp(`worker ${shown} of crashy`), 10_000);
	// The service answers 404 for a worker it no longer lists: the stream's state says so.
	await frameMatching(lastFrame, new RegExp(String.raw`^gone \(not found: logs of worker ${shown}: .*not found on endpoint ${id}`, 'm'), 15_000);
}, 120_000);

import {afterAll, beforeAll, expect, test} from 'vitest';
import type {Engine} from '../../source/engine/create-engine.js';
import {followJob} from '../../source/headless/follow-job.js';
import {jobKey} from '../../source/store/job-key.js';
import {engineFor} from '../helpers/engine.js';
import {startTestSim, waitFor, waitForStatus, type TestSim} from '../helpers/sim-client.js';

let sim: TestSim;
let engine: Engine | undefined;

beforeAll(async () => {
	sim = await startTestSim({endpoints: [{id: 'echo', workersMin: 1, workersMax: 1, flashBoot: true}]});
});

afterAll(async () => {
	await engine?.close();
	await sim.close();
});

test('a job seen ended by its status before its stream was read still gives every chunk: its stream is read once more', async () => {
	const id = await sim.run('echo', {delay_ms: 10, stream: ['first ', 'second\n'], payload: 'output'});
	await waitForStatus(sim, 'echo', id, 'COMPLETED', 10_000);
	engine = await engineFor(sim, {poll: ['jobs']});
	engine.start();
	// Its /status first (as a write's re-poll or a fast job does): the store has it ended, its stream unread.
	engine.track('echo', id);
	await waitFor(() => engine!.store.getState().jobs.byKey.get(jobKey('echo', id))?.status === 'COMPLETED', 10_000);
	expect(engine.store.getState().jobs.byKey.get(jobKey('echo', id))?.chunkCount).toBe(0);
	let written = '';
	const {job, streamed} = await followJob(engine, 'echo', id, text => {
		written += text;
	});
	expect(streamed).toBe(true);
	expect(written).toBe('first second\n');
	expect(job).toMatchObject({status: 'COMPLETED', streamEnded: true});
});

import {afterAll, expect, test} from 'vitest';
import type {Engine} from '../../source/engine/create-engine.js';
import {engineFor} from '../helpers/engine.js';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';

let sim: TestSim | undefined;
let engine: Engine | undefined;
afterAll(async () => {
	await engine?.close();
	await sim?.close();
});

test('following a job spends the /stream budget and the /status budget apart, as the service counts them', async () => {
	sim = await startTestSim({speed: 20, endpoints: [{id: 'ep', workersMin: 1, workersMax: 1, flashBoot: true}]});
	engine = await engineFor(sim, {poll: ['jobs'], budget: {graphqlPerWindow: 50}});
	engine.start();
	const jobId = await sim.run('ep', {delay_ms: 20_000, stream: ['a', 'b', 'c']});
	engine.follow('ep', jobId);
	await waitFor(() => engine!.store.getState().jobs.byKey.get(`ep/${jobId}`)?.status === 'COMPLETED', 10_000);
	// Budgets reach the store once a second, for the header.
	const budgets = await waitFor(() => {
		const current = engine!.store.getState().budgets;
		return current['ep:stream'] && current['ep:status'] ? current : undefined;
	}, 5000);
	// Each has the service's own limit (2000 per 10 s), at podtop's share.
	expect(budgets['ep:stream']!.allowed).toBe(budgets['ep:status']!.allowed);
}, 20_000);

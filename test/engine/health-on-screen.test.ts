import {afterAll, expect, test} from 'vitest';
import type {Engine} from '../../source/engine/create-engine.js';
import {defaultCadence} from '../../source/poll/cadence.js';
import {engineFor, simStats} from '../helpers/engine.js';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';

let sim: TestSim | undefined;
let engine: Engine | undefined;
afterAll(async () => {
	await engine?.close();
	await sim?.close();
});

test('/health goes to the endpoints on screen first; the rest are polled less often, over real HTTP', async () => {
	const ids = Array.from({length: 12}, (_, index) => `e${index}`);
	sim = await startTestSim({endpoints: ids.map(id => ({id, workersMin: 0}))});
	engine = await engineFor(sim, {poll: ['endpoints'], cadence: {...defaultCadence, healthMs: 1000, healthHiddenMs: 4000}, budget: {graphqlPerWindow: 50}});
	engine.focus('endpoints');
	engine.start();
	await waitFor(() => engine!.store.getState().endpoints.order.length === 12);
	engine.showing('endpoints', ['e0', 'e1']);
	await sim.call('POST', '/__sim/stats/reset');
	await new Promise(resolve => setTimeout(resolve, 8500));
	const stats = await simStats(sim);
	const requests = (id: string) => stats[id]?.health?.requests ?? 0;
	expect(requests('e0')).toBeGreaterThanOrEqual(7);
	expect(requests('e1')).toBeGreaterThanOrEqual(7);
	for (const id of ids.slice(2)) {
		expect(requests(id), id).toBeGreaterThanOrEqual(1);
		expect(requests(id), id).toBeLessThanOrEqual(3);
	}
}, 30_000);

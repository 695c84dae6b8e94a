import {describe, expect, test} from 'vitest';
import {closedAfterEach, engineFor, simStats} from '../helpers/engine.js';
import {startTestSim, waitFor} from '../helpers/sim-client.js';

const running = closedAfterEach();

describe("a fresh engine over v2, at the service's default quota (60 a minute, podtop's half 30)", () => {
	test('reads endpoints, pods and GPU types in its first few requests: the burst, not the spreading, lets them go (the budget clock held still)', async () => {
		const sim = await startTestSim();
		running.sim = sim;
		// The scheduler's clock stands still: the even spreading (2 s apart) never lets a second poll go, only the burst can.
		const held = performance.now();
		const engine = await engineFor(sim, {schedulerClock: () => held});
		running.engine = engine;
		engine.start();
		await waitFor(() => {
			const {endpoints, pods, gpus} = engine.store.getState();
			return endpoints.order.length > 0 && pods.order.length > 0 && gpus.order.length > 0;
		});
		const stats = await simStats(sim);
		const v2 = stats.rest!.request!;
		// The first poll and a burst of six at most, none refused.
		expect(v2.requests).toBeGreaterThanOrEqual(3);
		expect(v2.requests).toBeLessThanOrEqual(7);
		expect(v2.rateLimited).toBe(0);
	});
});

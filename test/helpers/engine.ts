import {afterEach} from 'vitest';
import {createEngine, type Engine, type EngineOptions} from '../../source/engine/create-engine.js';
import type {ManagementChoice} from '../../source/api/management-choice.js';
import type {TestSim} from './sim-client.js';

/**
An engine (clients, scheduler, store, pollers) pointed at a test simulator as if it were the live
service, its management plane over REST v2 (`auto`, as podtop starts) or the API a test is about.
*/
export async function engineFor(
	sim: {url: string; apiKey: string},
	{managementApi, ...options}: Omit<EngineOptions, 'target'> & {readonly managementApi?: ManagementChoice} = {},
): Promise<Engine> {
	return createEngine({
		...options,
		target: {mode: 'live', apiUrl: `${sim.url}/v2`, graphqlUrl: `${sim.url}/graphql`, managementApi, apiKey: sim.apiKey, warnings: []},
	});
}

export type SimStats = Record<string, Record<string, {requests: number; rateLimited: number; peakWindow: number; peakConcurrency: number}>>;

export async function simStats(sim: TestSim): Promise<SimStats> {
	return (await sim.call('GET', '/__sim/stats')).body.endpoints as SimStats;
}

/** The simulator and engine a test starts, both closed after each test: assign `running.sim` and `running.engine`. */
export function closedAfterEach(): {sim?: TestSim; engine?: Engine} {
	const running: {sim?: TestSim; engine?: Engine} = {};
	afterEach(async () => {
		await running.engine?.close();
		await running.sim?.close();
		running.engine = undefined;
		running.sim = undefined;
	});
	return running;
}

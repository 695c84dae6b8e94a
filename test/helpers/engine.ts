import {createEngine, type Engine, type EngineOptions} from '../../source/engine/create-engine.js';
import type {TestSim} from './sim-client.js';

/** An engine (clients, scheduler, store, pollers) pointed at a test simulator as if it were the live service. */
export async function engineFor(sim: {url: string; apiKey: string}, options: Omit<EngineOptions, 'target'> = {}): Promise<Engine> {
	return createEngine({...options, target: {mode: 'live', apiUrl: `${sim.url}/v2`, graphqlUrl: `${sim.url}/graphql`, apiKey: sim.apiKey, warnings: []}});
}

export type SimStats = Record<string, Record<string, {requests: number; rateLimited: number; peakWindow: number; peakConcurrency: number}>>;

export async function simStats(sim: TestSim): Promise<SimStats> {
	return (await sim.call('GET', '/__sim/stats')).body.endpoints as SimStats;
}

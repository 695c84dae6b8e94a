import {startTestSim, type Reply, type TestSim} from '../../helpers/sim-client.js';
import type {StartSimulatorOptions} from '../../../source/sim/start-simulator.js';
import {expectConforms} from './contract.js';

type CallOptions = Parameters<TestSim['call']>[2] & {readonly edge?: boolean; readonly unmetered?: boolean};

export type RestSim = TestSim & {
	/** A v2 request whose answer is checked against the spec before it is returned. */
	readonly rest: (method: string, path: string, options?: CallOptions) => Promise<Reply>;
};

const started: RestSim[] = [];

/** A real simulator (load off, pinned to the start of a minute so a test's requests share one minute window). */
export async function startRestSim(options: StartSimulatorOptions = {}): Promise<RestSim> {
	const sim = await startTestSim({graphqlRate: 1000, startAt: Date.UTC(2026, 11, 1, 12, 0, 0), ...options});
	const live: RestSim = {
		...sim,
		async rest(method, path, callOptions = {}) {
			const {edge, unmetered, ...rest} = callOptions;
			const reply = await sim.call(method, path, rest);
			expectConforms(method, path, reply, {edge, unmetered});
			return reply;
		},
	};
	started.push(live);
	return live;
}

export async function closeRestSims(): Promise<void> {
	await Promise.all(started.splice(0).map(async sim => sim.close()));
}

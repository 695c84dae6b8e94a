import type {AddressInfo} from 'node:net';
import {request} from 'undici';
import {createSimServer} from '../../../source/sim/http/server.js';
import {Simulator, type SimulatorConfig} from '../../../source/sim/simulator.js';
import {readReply, type Reply} from '../../helpers/sim-client.js';
import {expectConforms} from '../rest/contract.js';

export type ClockedSim = {
	readonly sim: Simulator;
	/** Moves the simulated clock on (it stays in its past: nothing moves but what the test moves). */
	readonly advance: (ms: number) => void;
	/** A v2 GET, checked against the spec. */
	readonly get: (path: string, key?: string) => Promise<Reply>;
	readonly close: () => Promise<void>;
};

/** A simulator served over real HTTP whose clock only the test moves: bills at exact, known times. */
export async function startClockedSim(config: Partial<SimulatorConfig> & {readonly startAt: number; readonly pastMs: number}): Promise<ClockedSim> {
	const sim = new Simulator({
		apiKey: 'owner-key',
		devApiKey: 'dev-key',
		seed: 1,
		speed: 1,
		rateLimitScale: 1,
		workerAllowance: 50,
		load: false,
		podCount: 0,
		endpoints: [],
		graphqlRate: 1000,
		...config,
	});
	const {server, closing} = createSimServer(sim);
	await new Promise<void>(resolve => {
		server.listen(0, '127.0.0.1', resolve);
	});
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		sim,
		advance(ms) {
			sim.clock.advance(sim.clock.now() + ms);
		},
		async get(path, key = 'owner-key') {
			const reply = await readReply(await request(`${url}${path}`, {headers: {authorization: `Bearer ${key}`}, headersTimeout: 20_000, bodyTimeout: 20_000}));
			expectConforms('GET', path, reply);
			return reply;
		},
		async close() {
			closing.abort();
			sim.close();
			await new Promise<void>(resolve => {
				server.close(() => {
					resolve();
				});
				server.closeAllConnections();
			});
		},
	};
}

import {randomBytes} from 'node:crypto';
import type {AddressInfo} from 'node:net';
import type {FaultSpec} from './faults.js';
import type {RestQuota} from './rest/rate-windows.js';
import type {EndpointSpec, EndpointSpecInput} from './endpoint-spec.js';
import {createSimServer} from './http/server.js';
import type {PastCadence} from './past-observation.js';
import {runPast, type PastFigures} from './past-run.js';
import {Simulator} from './simulator.js';

export type StartSimulatorOptions = {
	readonly host?: string;
	/** 0 picks a free port. */
	readonly port?: number;
	/** A random key when absent. */
	readonly apiKey?: string;
	/** A team Dev key besides it (everything but billing, which answers 403); none when absent. */
	readonly devApiKey?: string;
	readonly seed?: number;
	/** Simulated time runs this many times faster than real time. */
	readonly speed?: number;
	/** Multiplies every rate limit (e.g. 0.01 in tests). */
	readonly rateLimitScale?: number;
	/** Requests per 10 s each running worker adds to an endpoint's limits. */
	readonly workerAllowance?: number;
	/** Background load generator (default on). */
	readonly load?: boolean;
	/** The account's endpoints, replacing the demo fleet. */
	readonly endpoints?: readonly EndpointSpecInput[];
	/** How many endpoints the generated demo fleet has. */
	readonly endpointCount?: number;
	/** How many pods the fleet has (default 12). */
	readonly podCount?: number;
	/** GraphQL requests per second per key (default 5). */
	readonly graphqlRate?: number;
	/** REST v2 requests per key owner per minute, hour and day (default 60/3000/50000). */
	readonly restQuota?: RestQuota;
	/** `retired`: GraphQL answers 410 Gone (default `on`). */
	readonly graphql?: 'on' | 'retired';
	/** Faults injected from the start (`podtop sim --faults`). */
	readonly faults?: readonly FaultSpec[];
	/**
	Simulate this much of the account's past first (ms; `podtop sim --past 6h`): the clock starts that far
	back and runs the span as fast as it goes, observed as a polling client would see it
	(`GET /__sim/past`); requests wait until it reaches the present.
	*/
	readonly past?: number;
	/** How often the past is observed, per kind (simulated ms; `pastCadence` when absent). */
	readonly pastCadence?: PastCadence;
	/** The present the past runs up to (epoch ms; tests pin it); the wall clock when absent. */
	readonly startAt?: number;
	/** Where the clock starts (epoch ms), exactly, instead of `past` (the demo's world begins on the hour: the same for every podtop). */
	readonly origin?: number;
};

export type RunningSimulator = {
	/** Base URL, e.g. `http://127.0.0.1:8787`; the job API is under `${url}/v2`, GraphQL at `${url}/graphql`. */
	readonly url: string;
	readonly apiKey: string;
	readonly endpoints: readonly EndpointSpec[];
	/** Settles once the simulated past has been run (at once without one). */
	readonly present: Promise<void>;
	/** What the past cost (undefined without one). */
	readonly pastFigures: () => PastFigures | undefined;
	readonly close: () => Promise<void>;
};

export function createApiKey(): string {
	return `rpa_SIM${randomBytes(18).toString('hex').toUpperCase()}`;
}

/** Starts the simulated service in this process. Tests and the demo mode embed it this way. */
export async function startSimulator(options: StartSimulatorOptions = {}): Promise<RunningSimulator> {
	const apiKey = options.apiKey ?? createApiKey();
	const sim = new Simulator({
		apiKey,
		devApiKey: options.devApiKey,
		seed: options.seed ?? 1,
		speed: options.speed ?? 1,
		rateLimitScale: options.rateLimitScale ?? 1,
		workerAllowance: options.workerAllowance ?? 50,
		load: options.load ?? true,
		endpoints: options.endpoints,
		endpointCount: options.endpointCount,
		podCount: options.podCount ?? 12,
		graphqlRate: options.graphqlRate ?? 5,
		restQuota: options.restQuota,
		graphql: options.graphql ?? 'on',
		pastMs: options.past,
		startAt: options.startAt,
		origin: options.origin,
	});
	for (const fault of options.faults ?? []) {
		sim.faults.add(fault);
	}

	const past = sim.clock.inPast ? runPast(sim, {cadence: options.pastCadence, until: options.startAt}) : undefined;
	const {server, closing} = createSimServer(sim, past);
	const host = options.host ?? '127.0.0.1';
	try {
		await new Promise<void>((resolve, reject) => {
			server.once('error', reject);
			server.listen(options.port ?? 0, host, () => {
				server.off('error', reject);
				resolve();
			});
		});
	} catch (error) {
		past?.stop();
		sim.close();
		throw error;
	}

	const {port} = server.address() as AddressInfo;
	const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
	sim.baseUrl = url;
	let closed: Promise<void> | undefined;
	return {
		url,
		apiKey,
		endpoints: [...sim.endpoints.values()].map(endpoint => endpoint.spec),
		present: past?.present ?? Promise.resolve(),
		pastFigures: () => past?.figures(),
		async close() {
			closed ??= new Promise<void>(resolve => {
				past?.stop();
				closing.abort();
				sim.close();
				server.close(() => {
					resolve();
				});
				server.closeAllConnections();
			});
			return closed;
		},
	};
}

import {createGraphqlApi} from '../api/graphql-api.js';
import {createJobApi} from '../api/job-api.js';
import {Pools} from '../api/pools.js';
import {keyFingerprint} from '../api/redact.js';
import {defaultBudgetSettings, type BudgetSettings} from '../poll/budget-limits.js';
import type {Cadence} from '../poll/cadence.js';
import {createPollers, type Pollers} from '../poll/pollers.js';
import {createScheduledApi, type ScheduledApi} from '../poll/scheduled-api.js';
import {Scheduler} from '../poll/scheduler.js';
import type {RunningSimulator} from '../sim/start-simulator.js';
import {createPodtopStore, type PodtopStore} from '../store/create-store.js';
import type {Target} from './resolve-target.js';

export type Engine = {
	readonly mode: 'demo' | 'live';
	readonly store: PodtopStore;
	readonly api: ScheduledApi;
	readonly scheduler: Scheduler;
	readonly pollers: Pollers;
	/** Stops the pollers, aborts requests, closes connections and the demo simulator. */
	readonly close: () => Promise<void>;
};

export type EngineOptions = {
	readonly target: Target;
	readonly budget?: Partial<BudgetSettings>;
	readonly cadence?: Cadence;
	readonly endpointFilter?: readonly string[];
	readonly allVisible?: boolean;
	/** A store the caller made already (the dashboard draws its first frame before the engine loads). */
	readonly store?: PodtopStore;
};

/** Everything behind the UI, built outside React: the demo simulator when needed, clients, scheduler, store, pollers. */
export async function createEngine({target, budget, cadence, endpointFilter, allVisible, store: givenStore}: EngineOptions): Promise<Engine> {
	let demo: RunningSimulator | undefined;
	let service: {readonly apiUrl: string; readonly graphqlUrl: string; readonly apiKey: string};
	if (target.mode === 'live') {
		service = target;
	} else {
		// Loaded only for DEMO: a live session never pays for the simulator's code.
		const {startSimulator} = await import('../sim/start-simulator.js');
		demo = await startSimulator({port: 0, host: '127.0.0.1', load: true});
		service = {apiUrl: `${demo.url}/v2`, graphqlUrl: `${demo.url}/graphql`, apiKey: demo.apiKey};
	}

	const {apiUrl, graphqlUrl, apiKey} = service;
	const pools = new Pools();
	const scheduler = new Scheduler({settings: {...defaultBudgetSettings, ...budget}});
	const api = createScheduledApi({jobApi: createJobApi({baseUrl: apiUrl, apiKey, pools}), graphqlApi: createGraphqlApi({url: graphqlUrl, apiKey, pools}), scheduler});
	const store = givenStore ?? createPodtopStore({mode: target.mode, apiHost: new URL(apiUrl).host, keyFingerprint: keyFingerprint(apiKey)});
	store.getState().actions.setService(new URL(apiUrl).host, keyFingerprint(apiKey));

	const pollers = createPollers({store, api, scheduler, cadence, endpointFilter, allVisible});
	let closing: Promise<void> | undefined;
	return {
		mode: target.mode,
		store,
		api,
		scheduler,
		pollers,
		async close() {
			closing ??= (async () => {
				pollers.stop();
				scheduler.stop();
				await pools.close();
				await demo?.close();
			})();
			return closing;
		},
	};
}

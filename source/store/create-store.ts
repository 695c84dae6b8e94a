import {createStore, type StoreApi} from 'zustand/vanilla';
import type {PodtopState, Profile} from './state.js';
import type {TrackedJob} from './types.js';
import {endpointWrites, type EndpointWrites} from './write-endpoints.js';
import {gpuWrites, type GpuWrites} from './write-gpus.js';
import {jobWrites, type JobWrites} from './write-jobs.js';
import {podWrites, type PodWrites} from './write-pods.js';
import {replicaWrites, type ReplicaWrites} from './write-replica.js';
import {alertWrites, type AlertWrites} from './write-alerts.js';
import {probeWrites, type ProbeWrites} from './write-probes.js';
import {statusWrites, type StatusWrites} from './write-status.js';
import {emptyWorkers, workerWrites, type WorkerWrites} from './write-workers.js';

/** The store as readers see it: the dashboard and the headless commands can read and subscribe, never write. */
export type PodtopStore = Pick<StoreApi<PodtopState>, 'getState' | 'getInitialState' | 'subscribe'>;

/** Every write to the store. Only the pollers and `engine.perform` hold these. */
export type StoreWrites = EndpointWrites & PodWrites & GpuWrites & JobWrites & StatusWrites & ReplicaWrites & AlertWrites & ProbeWrites & WorkerWrites;

export type StoreOptions = {
	readonly mode: 'demo' | 'live';
	readonly apiHost: string;
	readonly keyFingerprint: string;
	readonly profile?: Profile;
	/** How long an endpoint's health samples are kept (`healthKeepFor` the alert rules; ten minutes without). */
	readonly healthKeepMs?: number;
};

/** The app's one store, and apart from it, its writers. */
export function createPodtopStore({mode, apiHost, keyFingerprint, profile, healthKeepMs}: StoreOptions): {
	readonly store: PodtopStore;
	readonly writes: StoreWrites;
} {
	const jobs = new Map<string, TrackedJob>();
	const store = createStore<PodtopState>()(() => ({
		mode,
		apiHost,
		keyFingerprint,
		profile,
		via: 'direct',
		listSource: 'direct',
		endpoints: {byId: {}, order: []},
		pods: {byId: {}, order: []},
		podDetail: undefined,
		serverlessDiscount: undefined,
		balance: undefined,
		gpus: {byId: {}, order: []},
		jobs: {byKey: jobs, revision: 0, changed: []},
		connection: {jobApi: {}, graphql: {}},
		keyRefused: {},
		budgets: {},
		alerts: [],
		probes: {configured: false, byEndpoint: {}},
		workers: emptyWorkers,
		focus: 'endpoints',
	}));
	const {setState: set, getState: get} = store;
	const writes: StoreWrites = {
		...endpointWrites(set, get, healthKeepMs),
		...podWrites(set, get),
		...gpuWrites(set, get),
		...jobWrites(set, get, jobs),
		...statusWrites(set, get),
		...replicaWrites(set, get),
		...alertWrites(set, get),
		...probeWrites(set, get),
		...workerWrites(set, get),
	};
	return {store, writes};
}

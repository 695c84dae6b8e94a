import {createStore, type StoreApi} from 'zustand/vanilla';
import {endpointActions} from './endpoint-actions.js';
import {gpuActions} from './gpu-actions.js';
import {jobActions} from './job-actions.js';
import {podActions} from './pod-actions.js';
import type {PodtopState} from './state.js';
import {statusActions} from './status-actions.js';

export type PodtopStore = StoreApi<PodtopState>;

export type StoreOptions = {
	readonly mode: 'demo' | 'live';
	readonly apiHost: string;
	readonly keyFingerprint: string;
};

/** The app's one store: data slices the pollers fill, and every write behind `actions`. */
export function createPodtopStore({mode, apiHost, keyFingerprint}: StoreOptions): PodtopStore {
	return createStore<PodtopState>()((set, get) => ({
		mode,
		apiHost,
		keyFingerprint,
		endpoints: {byId: {}, order: []},
		pods: {byId: {}, order: []},
		gpus: {byId: {}, order: []},
		jobs: {byKey: new Map(), revision: 0, changed: []},
		connection: {jobApi: {}, graphql: {}},
		budgets: {},
		ui: {visiblePane: 'endpoints'},
		actions: {
			...endpointActions(set, get),
			...podActions(set, get),
			...gpuActions(set, get),
			...jobActions(set, get),
			...statusActions(set, get),
		},
	}));
}

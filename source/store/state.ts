import type {BudgetState, ConnectionState, EndpointState, GpuState, PaneName, PodState, SourceName, TrackedJob} from './types.js';
import type {EndpointActions} from './endpoint-actions.js';
import type {PodActions} from './pod-actions.js';
import type {GpuActions} from './gpu-actions.js';
import type {JobActions} from './job-actions.js';
import type {StatusActions} from './status-actions.js';

export type Collection<T> = {
	readonly byId: Readonly<Record<string, T>>;
	/** Ids in the order the service listed them. */
	readonly order: readonly string[];
	/** When the list last came in. */
	readonly updatedAt?: number;
};

export type PodtopState = {
	readonly mode: 'demo' | 'live';
	/** Host of the job API, for the header (no path, no query, no key). */
	readonly apiHost: string;
	/** `••••1a2b`: the key is never kept in the store. */
	readonly keyFingerprint: string;
	readonly endpoints: Collection<EndpointState>;
	readonly pods: Collection<PodState>;
	readonly gpus: Collection<GpuState>;
	/**
	Tracked jobs. The map is updated in place (10,000 jobs must not be copied on every poll); each
	job record is replaced when it changes, `revision` counts writes and `changed` names the keys the
	latest write touched. Select a job with `state.jobs.byKey.get(key)`.
	*/
	readonly jobs: {readonly byKey: ReadonlyMap<string, TrackedJob>; readonly revision: number; readonly changed: readonly string[]};
	readonly connection: Readonly<Record<SourceName, ConnectionState>>;
	readonly budgets: Readonly<Record<string, BudgetState>>;
	/** Which pane is on screen, so hidden ones poll slower. */
	readonly ui: {readonly visiblePane: PaneName};
	readonly actions: EndpointActions & PodActions & GpuActions & JobActions & StatusActions;
};

export type SetState = (partial: Partial<PodtopState> | ((state: PodtopState) => Partial<PodtopState>)) => void;
export type GetState = () => PodtopState;

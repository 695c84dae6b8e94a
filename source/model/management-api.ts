import type {EndpointChanges, EndpointInput, EndpointRecord, SavedEndpoint, ServerlessDiscount} from './endpoint.js';
import type {GpuTypeRecord} from './gpu-type.js';
import type {LogLine, LogQuery, LogTarget} from './log-line.js';
import type {PodDeployInput, PodRecord, PodSummary} from './pod.js';
import type {BalanceRead} from './balance.js';
import type {AccountSpend, ResourceSpend, SpendQuery, SpendResourceKind} from './spend.js';
import type {Rollout, WorkerList} from './worker.js';

export type CallOptions = {readonly signal?: AbortSignal};

/** How a log stream tells its reader more than its lines: once it is open (its answer was 200), and each time bytes came (keep-alives too). */
export type StreamOptions = Required<CallOptions> & {
	readonly onOpen?: () => void;
	/** For a stall watchdog: bytes arrived, whether or not they made a line. */
	readonly onBytes?: () => void;
};

/**
Every management read and write podtop makes, in podtop's own records. One adapter per API
(`source/api/graphql-api.ts`, `source/api/rest/`), chosen at start.
*/
export type ManagementApi = {
	readonly endpoints: (options?: CallOptions) => Promise<EndpointRecord[]>;
	/** The endpoints and the account's serverless discount (undefined where the API does not publish it). */
	readonly endpointsAndDiscount: (options?: CallOptions) => Promise<{endpoints: EndpointRecord[]; discount: ServerlessDiscount | undefined}>;
	/** One endpoint with every writable field, or undefined when the account has no such endpoint. */
	readonly endpointForEdit: (id: string, options?: CallOptions) => Promise<SavedEndpoint | undefined>;
	readonly pods: (options?: CallOptions) => Promise<PodRecord[]>;
	/** Every pod, only the fields read while the Pods pane is hidden. */
	readonly podSummaries: (options?: CallOptions) => Promise<PodSummary[]>;
	readonly pod: (podId: string, options?: CallOptions) => Promise<PodRecord | null>;
	/** These pods with the list's fields, in the order asked; null for one gone. */
	readonly podsById: (podIds: readonly string[], options?: CallOptions) => Promise<Array<PodRecord | null>>;
	/** Every GPU type, its `lowestPrice` for a count and cloud (secure, community, or both when undefined). */
	readonly gpuTypes: (options?: CallOptions & {readonly gpuCount?: number; readonly secureCloud?: boolean}) => Promise<GpuTypeRecord[]>;
	/** Creates (no `id`) or replaces the whole record (`id`: every field sent, as GraphQL's save does). */
	readonly saveEndpoint: (input: EndpointInput, options?: CallOptions) => Promise<EndpointRecord>;
	/** Changes only these fields of an endpoint, where the API can (REST v2's PATCH); absent where it cannot (GraphQL: save the whole record). */
	readonly updateEndpoint?: (id: string, changes: EndpointChanges, options?: CallOptions) => Promise<EndpointRecord>;
	readonly deleteEndpoint: (id: string, options?: CallOptions) => Promise<void>;
	readonly deployOnDemand: (input: PodDeployInput, options?: CallOptions) => Promise<PodRecord>;
	readonly rentInterruptable: (input: PodDeployInput & {readonly bidPerGpu: number}, options?: CallOptions) => Promise<PodRecord>;
	readonly resume: (podId: string, gpuCount?: number, options?: CallOptions) => Promise<PodRecord>;
	readonly bidResume: (podId: string, bidPerGpu: number, gpuCount?: number, options?: CallOptions) => Promise<PodRecord>;
	readonly stop: (podId: string, options?: CallOptions) => Promise<PodRecord>;
	/** Restarts a running pod's container in place, where the API can (REST v2). */
	readonly restart?: (podId: string, options?: CallOptions) => Promise<PodRecord>;
	readonly terminate: (podId: string, options?: CallOptions) => Promise<void>;
	/** An endpoint's active workers, where the API publishes them (REST v2); undefined when the endpoint is gone. */
	readonly workers?: (endpointId: string, options?: CallOptions) => Promise<WorkerList | undefined>;
	/** An endpoint's releases and rollout, where the API publishes them (REST v2). */
	readonly releases?: (endpointId: string, options?: CallOptions) => Promise<Rollout | undefined>;
	/** The account's balance and spend per hour, where the API publishes them (GraphQL, until it is retired). */
	readonly balance?: (options?: CallOptions) => Promise<BalanceRead>;
	/** The account's spend per bucket, by category, where the API publishes bills (REST v2); a key without billing permission is refused (`forbidden`). */
	readonly spend?: (query: SpendQuery, options?: CallOptions) => Promise<AccountSpend>;
	/** One kind of resource's spend, per resource per bucket (REST v2). */
	readonly resourceSpend?: (kind: SpendResourceKind, query: SpendQuery, options?: CallOptions) => Promise<ResourceSpend>;
	/**
	Opens a log stream (REST v2's server-sent events) and calls `onLine` for each line until the signal aborts or the
	stream ends (resolves), or it fails (rejects; a 404 as a not-found error). One connection: resuming is the caller's.
	*/
	readonly streamLogs?: (target: LogTarget, query: LogQuery, onLine: (line: LogLine) => void, options: StreamOptions) => Promise<void>;
};

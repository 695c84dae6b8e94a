import type {CrashCause} from './logs/crash-causes.js';
import type {WorkerKind} from './workers/index.js';

export type ScalerType = 'QUEUE_DELAY' | 'REQUEST_COUNT';
export type EnvironmentVariable = {readonly key: string; readonly value: string};

/** One serverless endpoint: the record the GraphQL API reads and writes, plus how the simulator runs it. */
export type EndpointSpec = {
	readonly id: string;
	readonly name: string;
	readonly templateId: string;
	/** Comma-separated GPU pools, e.g. "ADA_24,AMPERE_24". */
	readonly gpuIds: string;
	readonly gpuCount: number;
	/** Comma-separated region codes; empty for any region. */
	readonly locations: string;
	readonly networkVolumeId: string | undefined;
	readonly env: readonly EnvironmentVariable[];
	/** Comma-separated CUDA versions; empty for any. */
	readonly allowedCudaVersions: string;
	readonly workersMin: number;
	readonly workersMax: number;
	readonly workersStandby: number;
	/** Seconds an idle worker above `workersMin` lives. */
	readonly idleTimeout: number;
	readonly scalerType: ScalerType;
	/** QUEUE_DELAY: seconds a job may wait before a worker is added; REQUEST_COUNT: jobs per worker. */
	readonly scalerValue: number;
	/** Default `policy.executionTimeout` for its jobs, milliseconds. */
	readonly executionTimeoutMs: number;
	readonly flashBoot: boolean;
	/** Bumped by every save. */
	readonly version: number;
	/** ISO timestamp. */
	readonly createdAt: string;
	/** How its workers behave (the simulator's stand-in for the container image). */
	readonly worker: WorkerKind;
	/** `/status` and `/runsync` output is the list of all yields. */
	readonly returnAggregateStream: boolean;
	/** Jobs per simulated minute the background load generator submits at its base rate (0: none). */
	readonly loadPerMinute: number;
	/** A public model endpoint (billed per output, not listed among the account's endpoints). */
	readonly public: boolean;
	/** REST v2 only: the container image (GraphQL names a template). */
	readonly image?: string;
	/** REST v2 only: GPU types subtracted from the pools. */
	readonly excludedTypes?: readonly string[];
	/** REST v2 only: the lowest CUDA version workers may be placed on. */
	readonly minCudaVersion?: string;
	/** REST v2 only: FlashBoot with priority capacity (PRIORITY_FLASHBOOT; GraphQL shows it as FLASHBOOT). */
	readonly priorityFlashBoot?: boolean;
	/** REST v2 only: preferred data centers (their countries are `locations`). */
	readonly dataCenterIds?: readonly string[];
	/** Simulator only: its containers die at start, for this reason (a broken release; the demo has one). */
	readonly crashLoop?: CrashCause;
};

export const endpointDefaults = {
	templateId: 'sim-template',
	gpuIds: 'AMPERE_24',
	gpuCount: 1,
	locations: '',
	networkVolumeId: undefined,
	env: [],
	allowedCudaVersions: '',
	workersMin: 0,
	workersMax: 3,
	workersStandby: 1,
	idleTimeout: 5,
	scalerType: 'QUEUE_DELAY',
	scalerValue: 4,
	executionTimeoutMs: 600_000,
	flashBoot: false,
	version: 0,
	createdAt: '2026-01-01T00:00:00.000Z',
	returnAggregateStream: false,
	loadPerMinute: 0,
	public: false,
	worker: 'echo',
} as const satisfies Partial<EndpointSpec>;

export type EndpointSpecInput = Partial<EndpointSpec> & Pick<EndpointSpec, 'id'>;

export function toEndpointSpec(input: EndpointSpecInput): EndpointSpec {
	const spec = {...endpointDefaults, name: input.id, ...input};
	if (spec.workersMin < 0 || spec.workersMax < spec.workersMin) {
		throw new RangeError(`endpoint ${spec.id}: need 0 <= workersMin <= workersMax`);
	}

	return spec;
}

/** The container image an endpoint's workers run: its own (REST v2), or its template's (GraphQL). */
export const imageOf = (spec: EndpointSpec) => spec.image ?? `runpod/${spec.templateId}:latest`;

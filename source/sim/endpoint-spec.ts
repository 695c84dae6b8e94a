import type {WorkerKind} from './workers/index.js';

export type ScalerType = 'QUEUE_DELAY' | 'REQUEST_COUNT';

/** What the simulator needs to run an endpoint's jobs and workers. */
export type EndpointSpec = {
	readonly id: string;
	readonly name: string;
	readonly worker: WorkerKind;
	readonly workersMin: number;
	readonly workersMax: number;
	/** Seconds an idle worker above `workersMin` lives. */
	readonly idleTimeout: number;
	readonly scalerType: ScalerType;
	/** QUEUE_DELAY: seconds a job may wait before a worker is added; REQUEST_COUNT: jobs per worker. */
	readonly scalerValue: number;
	/** Default `policy.executionTimeout` for its jobs, milliseconds. */
	readonly executionTimeoutMs: number;
	readonly flashBoot: boolean;
	/** `/status` and `/runsync` output is the list of all yields. */
	readonly returnAggregateStream: boolean;
	/** Jobs per simulated minute the background load generator submits at its base rate (0: none). */
	readonly loadPerMinute: number;
	/** A public model endpoint (billed per output, not listed among the account's endpoints). */
	readonly public: boolean;
};

export const endpointDefaults = {
	workersMin: 0,
	workersMax: 3,
	idleTimeout: 5,
	scalerType: 'QUEUE_DELAY',
	scalerValue: 4,
	executionTimeoutMs: 600_000,
	flashBoot: false,
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

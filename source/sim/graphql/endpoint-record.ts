import type {EndpointSpec, EnvironmentVariable, ScalerType} from '../endpoint-spec.js';
import {gpuPools, regionCodes} from '../market/gpu-catalogue.js';
import {ServiceError} from '../service-error.js';
import type {SimWorker} from '../sim-worker.js';

export type EndpointInput = {
	readonly id?: string | null;
	readonly name?: string | null;
	readonly templateId?: string | null;
	readonly gpuIds?: string | null;
	readonly gpuCount?: number | null;
	readonly idleTimeout?: number | null;
	readonly locations?: string | null;
	readonly networkVolumeId?: string | null;
	readonly scalerType?: string | null;
	readonly scalerValue?: number | null;
	readonly workersMin?: number | null;
	readonly workersMax?: number | null;
	readonly workersStandby?: number | null;
	readonly executionTimeoutMs?: number | null;
	readonly flashBootType?: 'FLASHBOOT' | 'OFF' | null;
	readonly allowedCudaVersions?: string | null;
	readonly env?: ReadonlyArray<EnvironmentVariable | null> | null;
};

export const simUserId = 'user_2sim0podtop0demo';

const list = (value: string | null | undefined) =>
	(value ?? '')
		.split(',')
		.map(item => item.trim())
		.filter(Boolean);

function wholeNumber(name: string, value: number | null | undefined, fallback: number, min: number, max: number): number {
	const result = value ?? fallback;
	if (!Number.isInteger(result) || result < min || result > max) {
		throw new ServiceError(`${name} must be a whole number from ${min} to ${max}, got ${result}`);
	}

	return result;
}

/**
Turns a `saveEndpoint` input into the full record. A save replaces the whole record: any optional
field left out goes back to its default. Validates what a real operator would get wrong.
*/
export function endpointFromInput(
	input: EndpointInput,
	base: {readonly id: string; readonly createdAt: string; readonly version: number; readonly previous?: EndpointSpec},
): EndpointSpec {
	// Creating needs name, templateId and gpuIds; a save with an id keeps the record's own when they are left out.
	const {previous} = base;
	const name = input.name?.trim() || previous?.name;
	if (!name) {
		throw new ServiceError('name is required');
	}

	const templateId = input.templateId || previous?.templateId;
	if (!templateId) {
		throw new ServiceError('templateId is required');
	}

	const pools = list(input.gpuIds ?? previous?.gpuIds);
	if (pools.length === 0) {
		throw new ServiceError(`gpuIds is required: one or more of ${gpuPools.join(', ')}`);
	}

	for (const pool of pools) {
		if (!(gpuPools as readonly string[]).includes(pool)) {
			throw new ServiceError(`Unknown GPU pool "${pool}" in gpuIds; use ${gpuPools.join(', ')}`);
		}
	}

	for (const location of list(input.locations)) {
		if (!(regionCodes as readonly string[]).includes(location)) {
			throw new ServiceError(`Unknown location "${location}"; use ${regionCodes.join(', ')} or leave it empty for any region`);
		}
	}

	const scalerType = (input.scalerType ?? 'QUEUE_DELAY') as ScalerType;
	if (scalerType !== 'QUEUE_DELAY' && scalerType !== 'REQUEST_COUNT') {
		throw new ServiceError(`scalerType must be QUEUE_DELAY or REQUEST_COUNT, got ${input.scalerType}`);
	}

	const workersMin = wholeNumber('workersMin', input.workersMin, 0, 0, 100);
	const workersMax = wholeNumber('workersMax', input.workersMax, 3, 0, 100);
	if (workersMin > workersMax) {
		throw new ServiceError(`workersMin (${workersMin}) cannot be greater than workersMax (${workersMax})`);
	}

	const flashBoot = input.flashBootType === undefined || input.flashBootType === null ? name.endsWith('-fb') : input.flashBootType === 'FLASHBOOT';
	return {
		id: base.id,
		name,
		templateId,
		gpuIds: pools.join(','),
		gpuCount: wholeNumber('gpuCount', input.gpuCount, 1, 1, 8),
		locations: list(input.locations).join(','),
		networkVolumeId: input.networkVolumeId || undefined,
		env: (input.env ?? []).filter((variable): variable is EnvironmentVariable => variable !== null),
		allowedCudaVersions: list(input.allowedCudaVersions).join(','),
		workersMin,
		workersMax,
		workersStandby: wholeNumber('workersStandby', input.workersStandby, 1, 0, 100),
		idleTimeout: wholeNumber('idleTimeout', input.idleTimeout, 5, 1, 3600),
		scalerType,
		scalerValue: wholeNumber('scalerValue', input.scalerValue, 4, 1, 10_000),
		executionTimeoutMs: wholeNumber('executionTimeoutMs', input.executionTimeoutMs, 600_000, 5001, 7 * 24 * 3_600_000),
		flashBoot,
		version: base.version,
		createdAt: base.createdAt,
		worker: previous?.worker ?? 'echo',
		returnAggregateStream: previous?.returnAggregateStream ?? false,
		loadPerMinute: previous?.loadPerMinute ?? 0,
		public: false,
	};
}

/** A serverless worker as the listing shows it among the endpoint's `pods`: a pod the endpoint runs. */
function workerPodView(spec: EndpointSpec, worker: SimWorker): Record<string, unknown> {
	return {
		id: worker.id,
		name: `${spec.name}-worker`,
		imageName: `runpod/${spec.templateId}`,
		desiredStatus: worker.state === 'unhealthy' ? 'EXITED' : 'RUNNING',
		gpuCount: spec.gpuCount,
		templateId: spec.templateId,
		runtime: null,
	};
}

/** An endpoint as the GraphQL API shows it; `pods` (its workers) only when a document selects them. */
export function endpointView(spec: EndpointSpec, workers: () => Iterable<SimWorker> = () => []): Record<string, unknown> {
	return {
		pods: () => [...workers()].map(worker => workerPodView(spec, worker)),
		...spec,
		networkVolumeId: spec.networkVolumeId ?? null,
		networkVolume: spec.networkVolumeId ? {id: spec.networkVolumeId, dataCenterId: 'EU-RO-1'} : null,
		flashBootType: spec.flashBoot ? 'FLASHBOOT' : 'OFF',
		aiKey: null,
		type: 'QB',
		userId: simUserId,
	};
}

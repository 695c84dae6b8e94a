import {endpointDefaults, type EndpointSpec, type ScalerType} from '../endpoint-spec.js';
import {dataCenters, gpuCatalogue, gpuPools} from '../market/gpu-catalogue.js';
import {checkBody} from './body-check.js';
import {invalid, RestError} from './rest-error.js';

type Body = Record<string, unknown>;

const container = {image: 'string', args: 'string', disk: 'integer', env: 'string-map', ports: 'string[]', registry: 'string'} as const;
const settings = {
	...container,
	cpu: 'object',
	dataCenterIds: 'string[]',
	flashboot: 'string',
	gpu: 'object',
	name: 'string',
	networkVolumes: 'string[]',
	scaling: 'object',
	templateId: 'string',
	timeout: 'integer',
	workers: 'object',
} as const;
const flashboots = ['OFF', 'FLASHBOOT', 'PRIORITY_FLASHBOOT'];
const cudaPattern = /^\d+\.\d+$/;

function gpuChanges(gpu: Body, creating: boolean): Partial<EndpointSpec> {
	checkBody(
		gpu,
		{pools: 'string[]', excludedTypes: 'string[]', count: 'integer', allowedCudaVersions: 'string[]', minCudaVersion: 'string'},
		'$.gpu',
		creating ? ['pools'] : [],
	);
	if (!creating && gpu.excludedTypes !== undefined && gpu.pools === undefined) {
		throw invalid(['$.gpu: excludedTypes requires pools (the two are one selection)']);
	}

	const pools = gpu.pools as string[] | undefined;
	const unknown = (pools ?? []).filter(pool => !(gpuPools as readonly string[]).includes(pool));
	if (pools?.length === 0 || unknown.length > 0) {
		throw new RestError(400, `gpu.pools must name one or more of ${gpuPools.join(', ')}${unknown.length > 0 ? `; unknown: ${unknown.join(', ')}` : ''}`);
	}

	const excluded = ((gpu.excludedTypes as string[] | undefined) ?? []).map(type => type.trim());
	const outside = excluded.filter(type => !gpuCatalogue.some(model => model.id === type && pools?.includes(model.pool ?? '')));
	if (outside.length > 0) {
		throw new RestError(400, `gpu.excludedTypes must be GPU types in the selected pools; not: ${outside.join(', ')}`);
	}

	const allowed = gpu.allowedCudaVersions as string[] | undefined;
	const floor = gpu.minCudaVersion as string | undefined;
	if ([...(allowed ?? []), ...(floor ? [floor] : [])].some(version => !cudaPattern.test(version))) {
		throw invalid(['$.gpu: CUDA versions are major.minor, like 12.8']);
	}

	if (allowed && allowed.length > 0 && floor) {
		throw new RestError(400, 'gpu.allowedCudaVersions and gpu.minCudaVersion are mutually exclusive');
	}

	return {
		...(pools ? {gpuIds: pools.join(','), excludedTypes: excluded} : {}),
		...(gpu.count === undefined ? {} : {gpuCount: gpu.count as number}),
		...(allowed ? {allowedCudaVersions: allowed.join(',')} : {}),
		...(floor === undefined ? {} : {minCudaVersion: floor || undefined}),
	};
}

function scalingChanges(scaling: Body): Partial<EndpointSpec> {
	const type = scaling.type as ScalerType;
	const key = type === 'QUEUE_DELAY' ? 'queueDelay' : 'requestCount';
	if (type !== 'QUEUE_DELAY' && type !== 'REQUEST_COUNT') {
		throw invalid(['$.scaling.type: must be QUEUE_DELAY or REQUEST_COUNT']);
	}

	checkBody(scaling, {type: 'string', [key]: type === 'QUEUE_DELAY' ? 'integer' : 'integer'}, '$.scaling', [key]);
	return {scalerType: type, scalerValue: scaling[key] as number};
}

function workerChanges(workers: Body, current: EndpointSpec): Partial<EndpointSpec> {
	checkBody(workers, {min: 'integer', max: 'integer', idleTimeout: 'integer'}, '$.workers');
	const min = (workers.min as number | undefined) ?? current.workersMin;
	const max = (workers.max as number | undefined) ?? current.workersMax;
	const idle = (workers.idleTimeout as number | undefined) ?? current.idleTimeout;
	if (min < 0 || max < min || idle < 1 || idle > 3600) {
		throw new RestError(400, `workers need 0 <= min <= max and idleTimeout from 1 to 3600 s (got min ${min}, max ${max}, idleTimeout ${idle})`);
	}

	return {workersMin: min, workersMax: max, idleTimeout: idle};
}

/** The changes a create or PATCH body makes: only what is sent (sending `gpu.pools` without `excludedTypes` clears them). */
function changesOf(body: Body, current: EndpointSpec, creating: boolean): Partial<EndpointSpec> {
	if (body.cpu !== undefined) {
		throw new RestError(400, 'CPU endpoints are not simulated; use gpu');
	}

	if (body.flashboot !== undefined && !flashboots.includes(body.flashboot as string)) {
		throw invalid([`$.flashboot: must be one of ${flashboots.join(', ')}`]);
	}

	const centers = body.dataCenterIds as string[] | undefined;
	const unknownCenter = centers?.find(id => !dataCenters.some(center => center.id === id));
	if (unknownCenter) {
		throw new RestError(400, `unknown data center ${unknownCenter}`);
	}

	if (body.name === '') {
		throw invalid(['$.name: must not be empty']);
	}

	const env = body.env as Record<string, string> | undefined;
	return {
		...(body.name === undefined ? {} : {name: body.name as string}),
		...(body.image === undefined ? {} : {image: body.image as string}),
		...(body.templateId === undefined ? {} : {templateId: body.templateId as string}),
		...(env ? {env: Object.entries(env).map(([key, value]) => ({key, value}))} : {}),
		...(body.gpu === undefined ? {} : gpuChanges(body.gpu as Body, creating)),
		...(body.scaling === undefined ? {} : scalingChanges(body.scaling as Body)),
		...(body.workers === undefined ? {} : workerChanges(body.workers as Body, current)),
		...(body.timeout === undefined ? {} : {executionTimeoutMs: body.timeout as number}),
		...(body.flashboot === undefined ? {} : {flashBoot: body.flashboot !== 'OFF', priorityFlashBoot: body.flashboot === 'PRIORITY_FLASHBOOT'}),
		...(body.networkVolumes === undefined ? {} : {networkVolumeId: (body.networkVolumes as string[])[0]}),
		...(centers
			? {dataCenterIds: centers, locations: [...new Set(centers.map(id => dataCenters.find(center => center.id === id)!.countryCode))].join(',')}
			: {}),
	};
}

/** `POST /v2/serverless` as a new endpoint record. `flashboot` omitted means OFF. */
export function endpointFromCreate(body: Body, base: {readonly id: string; readonly createdAt: string}): EndpointSpec {
	checkBody(body, {...settings, type: 'string'}, '$', ['name', 'type', 'scaling']);
	if (body.image === undefined && body.templateId === undefined) {
		throw invalid(["$: missing property 'image' (required unless templateId is set)"]);
	}

	if (body.type !== 'QUEUE') {
		throw new RestError(
			400,
			body.type === 'LOAD_BALANCER' ? 'load-balancing endpoints are not simulated; use type QUEUE' : 'type must be QUEUE or LOAD_BALANCER',
		);
	}

	if (body.gpu === undefined) {
		throw new RestError(400, 'gpu is required (CPU endpoints are not simulated)');
	}

	const fresh: EndpointSpec = {
		...endpointDefaults,
		name: '',
		executionTimeoutMs: 300_000,
		idleTimeout: 10,
		id: base.id,
		createdAt: base.createdAt,
		flashBoot: false,
	};
	return {...fresh, ...changesOf(body, fresh, true)};
}

/** `PATCH /v2/serverless/{id}`: the record with only the sent fields changed; a new image or env is a new version (a release). */
export function endpointFromPatch(body: Body, current: EndpointSpec): EndpointSpec {
	checkBody(body, settings);
	const changes = changesOf(body, current, false);
	const released = changes.image !== undefined || changes.env !== undefined || changes.templateId !== undefined;
	return {...current, ...changes, version: current.version + (released ? 1 : 0)};
}

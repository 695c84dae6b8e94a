import {imageOf, type EndpointSpec} from '../endpoint-spec.js';
import {dataCenters} from '../market/gpu-catalogue.js';

const list = (value: string) =>
	value
		.split(',')
		.map(item => item.trim())
		.filter(Boolean);

/** The data centers an endpoint prefers: the ones it was given, or those in its regions. */
export function endpointDataCenters(spec: EndpointSpec): string[] {
	if (spec.dataCenterIds) {
		return [...spec.dataCenterIds];
	}

	const regions = list(spec.locations);
	return dataCenters.filter(center => regions.includes(center.countryCode)).map(center => center.id);
}

export function flashbootOf(spec: EndpointSpec): 'OFF' | 'FLASHBOOT' | 'PRIORITY_FLASHBOOT' {
	if (!spec.flashBoot) {
		return 'OFF';
	}

	return spec.priorityFlashBoot ? 'PRIORITY_FLASHBOOT' : 'FLASHBOOT';
}

/** A serverless endpoint as REST v2 shows it, read from the same record GraphQL reads; its job API URLs on the simulator. */
export function endpointResource(spec: EndpointSpec, baseUrl: string): Record<string, unknown> {
	const api = `${baseUrl}/v2/${spec.id}`;
	return {
		id: spec.id,
		name: spec.name,
		image: imageOf(spec),
		env: Object.fromEntries(spec.env.map(({key, value}) => [key, value])),
		type: 'QUEUE',
		requestUrls: {
			run: `${api}/run`,
			runSync: `${api}/runsync`,
			status: `${api}/status/{job_id}`,
			stream: `${api}/stream/{job_id}`,
			cancel: `${api}/cancel/{job_id}`,
			retry: `${api}/retry/{job_id}`,
			purgeQueue: `${api}/purge-queue`,
			health: `${api}/health`,
		},
		gpu: {
			pools: list(spec.gpuIds),
			...(spec.excludedTypes && spec.excludedTypes.length > 0 ? {excludedTypes: [...spec.excludedTypes]} : {}),
			count: spec.gpuCount,
			allowedCudaVersions: list(spec.allowedCudaVersions),
			minCudaVersion: spec.minCudaVersion ?? null,
		},
		// Idle timeout does not apply to a queue endpoint scaling on request count: omitted there, as the service does.
		workers: {min: spec.workersMin, max: spec.workersMax, ...(spec.scalerType === 'QUEUE_DELAY' ? {idleTimeout: spec.idleTimeout} : {})},
		scaling: spec.scalerType === 'QUEUE_DELAY' ? {type: 'QUEUE_DELAY', queueDelay: spec.scalerValue} : {type: 'REQUEST_COUNT', requestCount: spec.scalerValue},
		dataCenterIds: endpointDataCenters(spec),
		networkVolumes: spec.networkVolumeId ? [spec.networkVolumeId] : [],
		timeout: spec.executionTimeoutMs,
		flashboot: flashbootOf(spec),
		createdAt: spec.createdAt,
	};
}

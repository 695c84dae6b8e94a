import type {EndpointRecord, SavedEndpoint} from '../../model/endpoint.js';
import type {components} from './v2-schema.js';

export type V2Endpoint = components['schemas']['Endpoint'];

const joined = (items: readonly string[] | null | undefined) => (items && items.length > 0 ? items.join(',') : null);

/**
A v2 endpoint as podtop's record: `workers {min, max, idleTimeout}`, `scaling` (the value under the
type's own key), `gpu.pools` comma-joined as `gpuIds`, `dataCenterIds` as `locations`, the first of
`networkVolumes`, `flashboot` as it is (OFF, FLASHBOOT, PRIORITY_FLASHBOOT). v2 keeps no link to a
template nor a standby count, and lists workers on their own route: those stay undefined.
*/
export function endpointRecord(endpoint: V2Endpoint): EndpointRecord {
	const {scaling} = endpoint;
	return {
		id: endpoint.id,
		name: endpoint.name,
		gpuIds: joined(endpoint.gpu?.pools),
		gpuCount: endpoint.gpu?.count ?? (endpoint.gpu ? 1 : null),
		idleTimeout: endpoint.workers.idleTimeout ?? null,
		locations: joined(endpoint.dataCenterIds) ?? '',
		networkVolumeId: endpoint.networkVolumes[0] ?? null,
		scalerType: scaling.type,
		scalerValue: scaling.type === 'QUEUE_DELAY' ? scaling.queueDelay : scaling.requestCount,
		workersMin: endpoint.workers.min,
		workersMax: endpoint.workers.max,
		flashBootType: endpoint.flashboot,
	};
}

/** The record with what a save sends too: env as key and value, the request timeout, the CUDA versions allowed. */
export function savedEndpoint(endpoint: V2Endpoint): SavedEndpoint {
	return {
		...endpointRecord(endpoint),
		env: Object.entries(endpoint.env ?? {}).map(([key, value]) => ({key, value})),
		executionTimeoutMs: endpoint.timeout,
		allowedCudaVersions: joined(endpoint.gpu?.allowedCudaVersions) ?? '',
	};
}

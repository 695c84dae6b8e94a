import type {EndpointSpec} from './endpoint-spec.js';
import {gpuCatalogue} from './market/gpu-catalogue.js';
import type {Random} from './random.js';
import {endpointDataCenters} from './rest/endpoint-resource.js';
import {hostsOf} from './rest/gpu-availability.js';

const list = (value: string) =>
	value
		.split(',')
		.map(item => item.trim())
		.filter(Boolean);

/** Where a worker lands: a GPU type of the endpoint's pools (less its excluded types), in a data center that hosts it, preferring the endpoint's. */
export function placeWorker(spec: EndpointSpec, random: Random): {gpuTypeId: string; dataCenterId: string} | undefined {
	const pools = list(spec.gpuIds);
	const models = gpuCatalogue.filter(model => model.pool !== undefined && pools.includes(model.pool) && !spec.excludedTypes?.includes(model.id));
	if (models.length === 0) {
		return undefined;
	}

	const model = random.pick(models);
	const hosts = hostsOf(model);
	const preferred = endpointDataCenters(spec);
	const centers = hosts.filter(center => preferred.includes(center.id));
	return {gpuTypeId: model.id, dataCenterId: random.pick(centers.length > 0 ? centers : hosts).id};
}

import {dataCenters, findGpu, gpuCatalogue, secureCompliance, type GpuModel} from '../market/gpu-catalogue.js';
import type {Simulator} from '../simulator.js';
import {availabilityOf, dataCenterName, hostsOf, products, type AvailabilityFilter} from './gpu-availability.js';
import type {RestQuery} from './query.js';
import {RestError} from './rest-error.js';
import {ok, type RestRoute} from './router.js';

/** The serverless list price per GPU-hour of a pool's cards: a markup on secure cloud, as the service's pricing has it. */
const serverlessPrice = (model: GpuModel) => (model.pool && model.securePrice !== undefined ? Math.round(model.securePrice * 2.6 * 100) / 100 : undefined);

function gpuResource(model: GpuModel): Record<string, unknown> {
	const serverless = serverlessPrice(model);
	return {
		id: model.id,
		name: model.displayName,
		pool: model.pool ?? null,
		manufacturer: model.manufacturer === 'Nvidia' ? 'NVIDIA' : 'AMD',
		memory: model.memoryInGb,
		secure: model.securePrice !== undefined,
		community: model.communityPrice !== undefined,
		price: {secure: model.securePrice ?? 0, community: model.communityPrice ?? 0, ...(serverless === undefined ? {} : {serverless})},
		maxCount: {secure: model.securePrice === undefined ? 0 : model.maxGpuCount, community: model.communityPrice === undefined ? 0 : model.maxGpuCount},
	};
}

const availabilityOnly = ['count', 'cloud', 'countryCodes', 'cudaVersions', 'minCudaVersion'] as const;

/** The catalog's query: `include=AVAILABILITY` needs `product` and `product` needs it (400 either way), as do the filters. */
function availabilityFilter(query: RestQuery): AvailabilityFilter | undefined {
	const include = query.list('include', ['AVAILABILITY'] as const);
	const wanted = query.list('product', products);
	if (include && !wanted) {
		throw new RestError(400, 'include=AVAILABILITY requires product (POD, CLUSTER or SERVERLESS): availability differs by product');
	}

	if (!include) {
		const stray = [...(wanted ? ['product'] : []), ...availabilityOnly.filter(name => query.has(name))];
		if (stray.length > 0) {
			throw new RestError(400, `${stray.join(', ')} valid only with include=AVAILABILITY`);
		}

		return undefined;
	}

	if (query.has('cudaVersions') && query.has('minCudaVersion')) {
		throw new RestError(400, 'cudaVersions and minCudaVersion are mutually exclusive');
	}

	const minCuda = query.list('minCudaVersion', undefined, /^\d+(?:\.\d+)?$/)?.[0];
	return {
		products: wanted!,
		count: query.integer('count', 1) ?? 1,
		cloud: query.one('cloud', ['SECURE', 'COMMUNITY'] as const) ?? 'SECURE',
		countryCodes: query.list('countryCodes', undefined, /^[A-Z]{2}$/),
		cudaVersions: query.list('cudaVersions', undefined, /^\d+\.\d+$/),
		minCudaVersion: minCuda,
	};
}

function gpuWithAvailability(sim: Simulator, model: GpuModel, filter: AvailabilityFilter | undefined, keepUnplaced: boolean) {
	if (!filter) {
		return gpuResource(model);
	}

	const availability = availabilityOf(model, sim.market, filter);
	if (!availability && !keepUnplaced) {
		return undefined;
	}

	return {...gpuResource(model), ...(availability ?? {availability: 'NONE'})};
}

const regionOf = (countryCode: string) => (countryCode === 'US' ? 'NORTH_AMERICA' : 'EUROPE');
const globalNetwork = new Set(['US-TX-3', 'US-GA-1', 'EU-RO-1']);

function dataCenterResource(sim: Simulator, center: (typeof dataCenters)[number], include: readonly string[]): Record<string, unknown> {
	const gpus = gpuCatalogue.filter(model => hostsOf(model).includes(center));
	return {
		id: center.id,
		name: dataCenterName(center.id),
		region: regionOf(center.countryCode),
		globalNetwork: globalNetwork.has(center.id),
		networkVolumeTypes: center.id.startsWith('US') ? ['STANDARD', 'HIGH_PERFORMANCE'] : ['STANDARD'],
		compliance: [...secureCompliance],
		...(include.includes('GPU_AVAILABILITY') && gpus.length > 0
			? {
					gpuAvailability: gpus.map(model => {
						const place = availabilityOf(model, sim.market, {products: ['POD'], count: 1, cloud: 'SECURE'});
						const here = (place?.dataCenters as Array<{id: string; availability: string}> | undefined)?.find(entry => entry.id === center.id);
						return {id: model.id, name: model.displayName, availability: here?.availability ?? 'NONE'};
					}),
				}
			: {}),
	};
}

/** `/v2/catalog`: GPU types with prices (and availability per product, data center and CUDA version on request), data centers. */
export const catalogRoutes: readonly RestRoute[] = [
	{
		path: '/catalog/gpus',
		methods: {
			GET({sim, query}) {
				const filter = availabilityFilter(query);
				return ok({gpus: gpuCatalogue.map(model => gpuWithAvailability(sim, model, filter, false)).filter(Boolean)});
			},
		},
	},
	{
		path: '/catalog/gpus/{id}',
		methods: {
			GET({sim, query, params}) {
				const filter = availabilityFilter(query);
				const model = findGpu(params.id!.trim());
				if (!model) {
					throw new RestError(404, `GPU type ${params.id!} not found`);
				}

				return ok(gpuWithAvailability(sim, model, filter, true));
			},
		},
	},
	{
		path: '/catalog/datacenters',
		methods: {
			GET({sim, query}) {
				const include = query.list('include', ['GPU_AVAILABILITY', 'CPU_AVAILABILITY'] as const) ?? [];
				const regions = query.list('regions', [
					'NORTH_AMERICA',
					'SOUTH_AMERICA',
					'EUROPE',
					'ASIA',
					'MIDDLE_EAST',
					'AFRICA',
					'OCEANIA',
					'ANTARCTICA',
					'UNKNOWN',
				] as const);
				const global = query.boolean('globalNetwork');
				const centers = dataCenters
					.filter(center => !regions || regions.includes(regionOf(center.countryCode)))
					.filter(center => global === undefined || globalNetwork.has(center.id) === global)
					.map(center => dataCenterResource(sim, center, include));
				return ok({dataCenters: centers});
			},
		},
	},
	{
		path: '/catalog/datacenters/{id}',
		methods: {
			GET({sim, query, params}) {
				const include = query.list('include', ['GPU_AVAILABILITY', 'CPU_AVAILABILITY'] as const) ?? [];
				const center = dataCenters.find(candidate => candidate.id === params.id);
				if (!center) {
					throw new RestError(404, `data center ${params.id!} not found`);
				}

				return ok(dataCenterResource(sim, center, include));
			},
		},
	},
];

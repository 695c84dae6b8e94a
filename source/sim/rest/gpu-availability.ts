import {seedOf} from '../noise.js';
import {dataCenters, minimumCuda, type GpuModel} from '../market/gpu-catalogue.js';
import {stockStatusOf, type Market} from '../market/market.js';

export const products = ['POD', 'CLUSTER', 'SERVERLESS'] as const;
export type Product = (typeof products)[number];
export type Level = 'NONE' | 'LOW' | 'MEDIUM' | 'HIGH';

export type AvailabilityFilter = {
	readonly products: readonly Product[];
	readonly count: number;
	readonly cloud: 'SECURE' | 'COMMUNITY';
	readonly countryCodes?: readonly string[];
	readonly cudaVersions?: readonly string[];
	readonly minCudaVersion?: string;
};

const levels: readonly Level[] = ['NONE', 'LOW', 'MEDIUM', 'HIGH'];
const cudaReleases = ['11.8', '12.1', '12.4', '12.6', '12.8'] as const;
const versionNumber = (version: string) => Number(version.split('.')[0]) * 100 + Number(version.split('.')[1] ?? 0);
const best = (a: Level, b: Level) => (levels.indexOf(a) >= levels.indexOf(b) ? a : b);

/** The data centers that host this GPU type: a fixed, seeded two-thirds of them, at least one. */
export function hostsOf(model: GpuModel): ReadonlyArray<(typeof dataCenters)[number]> {
	const hosts = dataCenters.filter(center => seedOf(`${model.id}@${center.id}`) % 3 !== 0);
	return hosts.length > 0 ? hosts : dataCenters.slice(0, 1);
}

function offered(model: GpuModel, product: Product, cloud: AvailabilityFilter['cloud']): boolean {
	const inCloud = (cloud === 'SECURE' ? model.securePrice : model.communityPrice) !== undefined;
	switch (product) {
		case 'SERVERLESS': {
			return model.pool !== undefined;
		}

		case 'CLUSTER': {
			return inCloud && model.memoryInGb >= 80 && model.maxGpuCount === 8;
		}

		default: {
			return inCloud;
		}
	}
}

const level = (free: number, count: number): Level => (free >= count ? (stockStatusOf(free).toUpperCase() as Level) : 'NONE');

/** CUDA versions machines with this type offer (none for AMD), narrowed by the filter, each with whether it has room now. */
function cudaOf(model: GpuModel, filter: AvailabilityFilter, free: number): Array<{version: string; available: boolean}> | undefined {
	if (model.manufacturer !== 'Nvidia') {
		return undefined;
	}

	return cudaReleases
		.filter(version => versionNumber(version) >= versionNumber(minimumCuda(model)))
		.filter(version => !filter.cudaVersions || filter.cudaVersions.includes(version))
		.filter(version => !filter.minCudaVersion || versionNumber(version) >= versionNumber(filter.minCudaVersion))
		.map(version => ({version, available: free >= filter.count}));
}

/**
`include=AVAILABILITY` for one GPU type: overall, per data center (the market's free GPUs spread over the
data centers hosting it, seeded), and per CUDA version. Undefined when a country filter leaves it no data center.
*/
export function availabilityOf(model: GpuModel, market: Market, filter: AvailabilityFilter): Record<string, unknown> | undefined {
	const hosts = hostsOf(model).filter(center => !filter.countryCodes || filter.countryCodes.includes(center.countryCode));
	if (hosts.length === 0) {
		return undefined;
	}

	const weights = hosts.map(center => 1 + (seedOf(`${center.id}/${model.id}`) % 5));
	const total = weights.reduce((sum, weight) => sum + weight, 0);
	const free = market.free(model);
	const cuda = cudaOf(model, filter, free);
	const usable =
		filter.products.some(product => offered(model, product, filter.cloud)) && (cuda === undefined || cuda.length > 0 || model.manufacturer !== 'Nvidia');
	const centers = usable
		? hosts.map((center, index) => ({
				id: center.id,
				name: dataCenterName(center.id),
				availability: level(Math.min(model.maxGpuCount, Math.floor((free * weights[index]!) / total)), filter.count),
			}))
		: [];
	const overall = centers.reduce<Level>((worst, center) => best(worst, center.availability), 'NONE');
	return {
		availability: overall,
		...(centers.length > 0 ? {dataCenters: centers} : {}),
		...(cuda && cuda.length > 0 ? {cudaVersions: cuda} : {}),
	};
}

const places: Readonly<Record<string, string>> = {
	TX: 'Texas',
	GA: 'Georgia',
	CA: 'California',
	RO: 'Romania',
	CZ: 'Czechia',
	FR: 'France',
	NO: 'Norway',
	GB: 'Great Britain',
};

/** `US-TX-3` → `US Texas 3`. */
export function dataCenterName(id: string): string {
	const [area = '', place = '', number = ''] = id.split('-');
	return `${area} ${places[place] ?? place} ${number}`.trim();
}

import {secureCompliance, type GpuModel} from '../market/gpu-catalogue.js';
import {stockStatusOf, type Market} from '../market/market.js';

type LowestPriceInput =
	| {
			readonly gpuCount?: number | null;
			readonly secureCloud?: boolean | null;
			readonly countryCode?: string | null;
			readonly compliance?: ReadonlyArray<string | null> | null;
	  }
	| null
	| undefined;

const round = (value: number | undefined, digits = 2) => (value === undefined ? null : Math.round(value * 10 ** digits) / 10 ** digits);

/** A GPU type as the GraphQL API shows it; `lowestPrice` is computed on demand, for the requested count and cloud. */
export function gpuTypeView(model: GpuModel, market: Market): Record<string, unknown> {
	return {
		id: model.id,
		displayName: model.displayName,
		manufacturer: model.manufacturer,
		memoryInGb: model.memoryInGb,
		cudaCores: model.cudaCores,
		maxGpuCount: model.maxGpuCount,
		maxGpuCountSecureCloud: model.securePrice === undefined ? 0 : model.maxGpuCount,
		maxGpuCountCommunityCloud: model.communityPrice === undefined ? 0 : model.maxGpuCount,
		secureCloud: model.securePrice !== undefined,
		communityCloud: model.communityPrice !== undefined,
		securePrice: model.securePrice ?? null,
		communityPrice: model.communityPrice ?? null,
		secureSpotPrice: () => market.spotPrice(model, 'SECURE') ?? null,
		communitySpotPrice: () => market.spotPrice(model, 'COMMUNITY') ?? null,
		oneWeekPrice: round(model.securePrice && model.securePrice * 0.95),
		oneMonthPrice: round(model.securePrice && model.securePrice * 0.9),
		threeMonthPrice: round(model.securePrice && model.securePrice * 0.85),
		sixMonthPrice: round(model.securePrice && model.securePrice * 0.8),
		lowestPrice({input}: {input?: LowestPriceInput}) {
			const gpuCount = input?.gpuCount ?? 1;
			const cloud = input?.secureCloud === true ? 'SECURE' : input?.secureCloud === false ? 'COMMUNITY' : 'ALL';
			const price = market.onDemandPrice(model, cloud);
			// Only secure cloud is certified; asking for a standard it lacks leaves nothing to rent.
			const certified = cloud !== 'COMMUNITY' && model.securePrice !== undefined;
			const compliance = certified ? [...secureCompliance] : null;
			const wanted = (input?.compliance ?? []).filter(Boolean);
			const compliant = wanted.every(standard => compliance?.includes(standard as (typeof secureCompliance)[number]));
			if (price === undefined || !compliant) {
				return {
					gpuName: model.displayName,
					gpuTypeId: model.id,
					minimumBidPrice: null,
					uninterruptablePrice: null,
					stockStatus: null,
					maxUnreservedGpuCount: 0,
					availableGpuCounts: [],
					rentedCount: model.supply,
					totalCount: model.supply,
					rentalPercentage: 1,
					minMemory: null,
					minVcpu: null,
					countryCode: input?.countryCode ?? null,
					compliance,
				};
			}

			const free = market.free(model);
			const maxUnreserved = market.maxUnreserved(model);
			return {
				gpuName: model.displayName,
				gpuTypeId: model.id,
				minimumBidPrice: market.spotPrice(model, cloud) ?? null,
				uninterruptablePrice: price,
				minMemory: 31 * gpuCount,
				minVcpu: 8 * gpuCount,
				stockStatus: maxUnreserved >= gpuCount ? stockStatusOf(free) : 'None',
				maxUnreservedGpuCount: maxUnreserved,
				availableGpuCounts: Array.from({length: maxUnreserved}, (_, index) => index + 1),
				rentedCount: Math.max(0, model.supply - free),
				totalCount: model.supply,
				rentalPercentage: Math.round((1 - free / model.supply) * 1000) / 1000,
				countryCode: input?.countryCode ?? null,
				compliance,
			};
		},
	};
}

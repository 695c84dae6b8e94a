import type {GpuTypeRecord, LowestPrice} from '../../model/gpu-type.js';
import type {components} from './v2-schema.js';

export type V2GpuType = components['schemas']['GpuType'];
type Level = components['schemas']['AvailabilityLevel'];

/** v2's levels as the stock words podtop's records carry (GraphQL's `stockStatus`). */
const stockWords: Readonly<Record<Level, string>> = {NONE: 'None', LOW: 'Low', MEDIUM: 'Medium', HIGH: 'High'};
const levels: readonly Level[] = ['NONE', 'LOW', 'MEDIUM', 'HIGH'];

/** The better of two levels (a type offered in both clouds is as available as its better one). */
export const betterLevel = (a: Level | undefined, b: Level | undefined): Level | undefined =>
	a === undefined ? b : b === undefined ? a : levels.indexOf(a) >= levels.indexOf(b) ? a : b;

/**
The offer v2 publishes for a count and cloud: a stock level, not a number of GPUs. So the record's
`maxUnreservedGpuCount` is 0 when none is free and unknown (null) otherwise; there are no bids (no spot
in v2). `uninterruptablePrice` is the cloud's list price, or the lower of the two for both.
*/
function offerOf(type: V2GpuType, level: Level | undefined, cloud: 'SECURE' | 'COMMUNITY' | undefined): LowestPrice | null {
	if (level === undefined) {
		return null;
	}

	const prices = [
		...(cloud !== 'COMMUNITY' && type.secure ? [type.price.secure] : []),
		...(cloud !== 'SECURE' && type.community ? [type.price.community] : []),
	];
	return {
		stockStatus: stockWords[level],
		maxUnreservedGpuCount: level === 'NONE' ? 0 : null,
		minimumBidPrice: null,
		uninterruptablePrice: prices.length > 0 ? Math.min(...prices) : null,
	};
}

/** Each data center's level in one or more answers for a type (`include=AVAILABILITY`), the better where two clouds name one. */
export function dataCenterLevels(answers: ReadonlyArray<Pick<V2GpuType, 'dataCenters'>>): Map<string, Level> | undefined {
	let levelsByCenter: Map<string, Level> | undefined;
	for (const {dataCenters} of answers) {
		for (const center of dataCenters ?? []) {
			levelsByCenter ??= new Map();
			levelsByCenter.set(center.id, betterLevel(levelsByCenter.get(center.id), center.availability)!);
		}
	}

	return levelsByCenter;
}

/**
A v2 GPU type as podtop's record, its stock at `level` (from `include=AVAILABILITY`) for `cloud` (undefined: both),
and by data center where the answers named them (`centers`).
*/
export function gpuTypeRecord(
	type: V2GpuType,
	level: Level | undefined,
	cloud: 'SECURE' | 'COMMUNITY' | undefined,
	centers?: ReadonlyMap<string, Level>,
): GpuTypeRecord {
	return {
		id: type.id,
		displayName: type.name,
		manufacturer: type.manufacturer === 'NVIDIA' ? 'Nvidia' : type.manufacturer,
		memoryInGb: type.memory,
		maxGpuCount: Math.max(type.maxCount.secure, type.maxCount.community),
		securePrice: type.secure ? type.price.secure : null,
		communityPrice: type.community ? type.price.community : null,
		secureSpotPrice: null,
		communitySpotPrice: null,
		lowestPrice: offerOf(type, level, cloud),
		pool: type.pool ?? null,
		...(centers && centers.size > 0
			? {dataCenterStock: Object.fromEntries([...centers].toSorted(([a], [b]) => a.localeCompare(b)).map(([id, each]) => [id, stockWords[each]]))}
			: {}),
	};
}

/** Bucket lengths the service bills by, in UTC. */
export const spendBucketSizes = ['hour', 'day', 'week', 'month', 'year'] as const;
export type SpendBucketSize = (typeof spendBucketSizes)[number];

/** What the account's spend is split into (the service's cost components). */
export const spendCategories = [
	'podGpu',
	'podCpu',
	'podDisk',
	'serverlessGpu',
	'serverlessCpu',
	'serverlessDisk',
	'serverlessFee',
	'storageStandard',
	'storageHighPerformance',
	'publicEndpoint',
	'clusterGpu',
	'clusterDisk',
	'clusterNetworking',
] as const;
export type SpendCategory = (typeof spendCategories)[number];

/** What a spend read asks for: a window (epoch ms, the end exclusive; the service's defaults when absent) or the last N buckets, the one in progress included. */
export type SpendQuery = {readonly bucketSize: SpendBucketSize; readonly from?: number; readonly to?: number; readonly lastN?: number};

/** The kinds of resource the service bills one by one. */
export const spendResourceKinds = ['pod', 'endpoint', 'volume', 'cluster'] as const;
export type SpendResourceKind = (typeof spendResourceKinds)[number];

/** The window the service resolved (aligned to its buckets), epoch ms. */
export type SpendWindow = {readonly from: number; readonly to: number; readonly bucketSize: SpendBucketSize};

/** One bucket of the account's spend, in dollars. */
export type SpendBucket = {
	readonly from: number;
	readonly to: number;
	readonly total: number;
	readonly byCategory: Readonly<Record<SpendCategory, number>>;
};

/** The account's spend per bucket, by category. */
export type AccountSpend = {
	readonly window: SpendWindow;
	readonly buckets: readonly SpendBucket[];
	readonly total: number;
	readonly byCategory: Readonly<Record<SpendCategory, number>>;
};

/** What one resource (a pod, an endpoint, a network volume, a cluster) cost in one bucket, in dollars, by its kind's categories. */
export type ResourceSpendRecord = {
	readonly from: number;
	readonly to: number;
	readonly resourceId: string;
	readonly total: number;
	readonly byCategory: Readonly<Partial<Record<SpendCategory, number>>>;
};

/** One kind of resource's spend: a record per resource per bucket it cost something in. */
export type ResourceSpend = {
	readonly kind: SpendResourceKind;
	readonly window: SpendWindow;
	readonly records: readonly ResourceSpendRecord[];
	readonly total: number;
	readonly byCategory: Readonly<Partial<Record<SpendCategory, number>>>;
};

/** How a spend report is split: the account's categories, or one kind of resource (`podtop spend --by`). */
export const spendSplits = ['category', 'pod', 'endpoint', 'volume'] as const;
export type SpendSplit = (typeof spendSplits)[number];

/** A GPU type's offer for a count and cloud: stock and prices now. */
export type LowestPrice = {
	/** `High`, `Medium`, `Low`, or null when none is free. */
	readonly stockStatus?: string | null;
	readonly maxUnreservedGpuCount?: number | null;
	readonly availableGpuCounts?: readonly number[] | null;
	readonly minimumBidPrice?: number | null;
	readonly uninterruptablePrice?: number | null;
	/** Standards the offer is certified for (secure cloud); null where none. */
	readonly compliance?: ReadonlyArray<string | null> | null;
};

/** podtop's own record of a GPU type (field names are the seed API's, kept for recorded history). */
export type GpuTypeRecord = {
	readonly id: string;
	readonly displayName?: string | null;
	readonly manufacturer?: string | null;
	readonly memoryInGb?: number | null;
	readonly maxGpuCount?: number | null;
	readonly securePrice?: number | null;
	readonly communityPrice?: number | null;
	readonly secureSpotPrice?: number | null;
	readonly communitySpotPrice?: number | null;
	/** Committed prices per GPU-hour, for a week to six months. */
	readonly oneWeekPrice?: number | null;
	readonly oneMonthPrice?: number | null;
	readonly threeMonthPrice?: number | null;
	readonly sixMonthPrice?: number | null;
	readonly lowestPrice?: LowestPrice | null;
	/** The serverless pool the type belongs to (`ADA_24`), where the API says (REST v2). */
	readonly pool?: string | null;
	/** Its stock in each data center that offers it (`EU-RO-1` → `Low`), for the same offer as `lowestPrice`, where the API says (REST v2); a data center not named has none. */
	readonly dataCenterStock?: Readonly<Record<string, string>> | null;
};

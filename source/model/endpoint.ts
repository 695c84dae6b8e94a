/**
podtop's own record of a serverless endpoint. Its field names are the seed API's (GraphQL's), kept
because recorded history stores records by them; each management API maps its wire format to this
record in `source/api/` (GraphQL field for field, REST v2 from its nested `workers`, `scaling`, `gpu`).
*/
export type EndpointRecord = {
	readonly id: string;
	readonly name: string;
	readonly templateId?: string | null;
	/** GPU pools, comma-joined, most preferred first (`ADA_24,AMPERE_48`). */
	readonly gpuIds?: string | null;
	readonly gpuCount?: number | null;
	readonly idleTimeout?: number | null;
	/** Data centers, comma-joined; empty or null for any. */
	readonly locations?: string | null;
	readonly networkVolumeId?: string | null;
	/** `QUEUE_DELAY` or `REQUEST_COUNT`. */
	readonly scalerType?: string | null;
	readonly scalerValue?: number | null;
	readonly workersMin?: number | null;
	readonly workersMax?: number | null;
	readonly workersStandby?: number | null;
	/** `OFF`, `FLASHBOOT` or `PRIORITY_FLASHBOOT`. */
	readonly flashBootType?: string | null;
	/** The endpoint's workers, as pods. */
	readonly pods?: ReadonlyArray<{readonly id?: string | null; readonly desiredStatus?: string | null} | null> | null;
};

export type EnvironmentVariable = {readonly key: string; readonly value: string};

/** What a save of an endpoint sends: every writable field (an update sends only what changed where the API allows it). */
export type EndpointInput = Omit<EndpointRecord, 'id' | 'pods'> & {
	readonly id?: string;
	readonly env?: readonly EnvironmentVariable[] | null;
	readonly executionTimeoutMs?: number | null;
	readonly allowedCudaVersions?: string | null;
};

/** What an update of an endpoint changes: only these fields are sent, where the API allows it (REST v2's PATCH). */
export type EndpointChanges = Partial<Omit<EndpointInput, 'id'>>;

/** An endpoint with every field a save sends back. */
export type SavedEndpoint = EndpointInput & {readonly id: string};

/** The account's serverless discount, where it has one. */
export type ServerlessDiscount = {readonly discountFactor?: number | null; readonly type?: string | null; readonly expirationDate?: string | null};

import type {ServerlessDiscount} from '../model/endpoint.js';
import type {GpuTypeRecord} from '../model/gpu-type.js';
import type {ManagementApi} from '../model/management-api.js';
import {ApiError} from './errors.js';

/** Which management API podtop speaks: REST v2 (`v2`), GraphQL, or v2 unless the service has none (`auto`). */
export type ManagementChoice = 'auto' | 'v2' | 'graphql';

export const managementChoices: readonly ManagementChoice[] = ['auto', 'v2', 'graphql'];

type Options = {
	readonly choice: ManagementChoice;
	readonly v2: ManagementApi;
	readonly graphql: ManagementApi;
	/** Said once, on a change of API or of what GraphQL still publishes. */
	readonly notice?: (line: string) => void;
	/** What v2 does not publish (the serverless discount) is read from GraphQL at most this often while it answers. */
	readonly discountEveryMs?: number;
	/** A GPU type's spot prices, free counts and compliance (GraphQL's) are read at most this often while it answers. */
	readonly gpuFactsEveryMs?: number;
	readonly now?: () => number;
};

/** What only REST v2 publishes, and how a refusal names it. */
const v2OnlyWords = {workers: 'workers', releases: 'releases', streamLogs: 'logs', spend: 'billing', resourceSpend: 'billing'} as const;
type V2Only = keyof typeof v2OnlyWords;

/** The methods whose answer is a list: a 404 there means the route is missing, not a resource. */
const listReads = new Set<keyof ManagementApi>(['endpoints', 'endpointsAndDiscount', 'pods', 'podSummaries', 'gpuTypes']);

/** What v2 has no route for (spot pods): GraphQL's, over v2 too, while GraphQL answers. */
const graphqlOnly = new Set<keyof ManagementApi>(['rentInterruptable', 'bidResume']);

/** A v2 GPU type with what v2 does not publish (spot prices, free counts, compliance, committed prices) filled in from GraphQL's. */
function withGraphqlFacts(type: GpuTypeRecord, facts: GpuTypeRecord | undefined): GpuTypeRecord {
	if (!facts) {
		return type;
	}

	const filled: Record<string, unknown> = {...type};
	for (const [name, value] of Object.entries(facts)) {
		if ((filled[name] === undefined || filled[name] === null) && name !== 'lowestPrice') {
			filled[name] = value;
		}
	}

	const lowest: Record<string, unknown> = {...type.lowestPrice};
	for (const [name, value] of Object.entries(facts.lowestPrice ?? {})) {
		lowest[name] ??= value;
	}

	return {...(filled as GpuTypeRecord), lowestPrice: lowest};
}

const isGone = (error: unknown) => error instanceof ApiError && error.status === 410;
const isMissingRoute = (error: unknown) => error instanceof ApiError && (error.status === 404 || error.status === 410);

/**
The management API in use. `auto` speaks v2 and, when a list answers 404 (a RunPod-style service
without `/v2`), moves to GraphQL for the session and says so once. Over v2, the serverless discount
(which v2 does not publish) is read from GraphQL every 10 minutes while GraphQL answers; from its
first 410 on, podtop says once that it is gone and reports it as unknown, never as zero. Spot
pods (a deploy with a bid, a bid resume), which v2 has no route for, go to GraphQL while it answers.
So are a GPU type's spot prices, free counts and compliance (every minute).
`v2` asks GraphQL nothing: what v2 lacks is then unknown, or refused before anything is sent.
*/
export function createManagementApi({
	choice,
	v2,
	graphql,
	notice,
	discountEveryMs = 600_000,
	gpuFactsEveryMs = 60_000,
	now = Date.now,
}: Options): ManagementApi & {readonly inUse: () => 'v2' | 'graphql'} {
	let inUse: 'v2' | 'graphql' = choice === 'graphql' ? 'graphql' : 'v2';
	let settled = choice !== 'auto';
	// `auto` asks GraphQL for what v2 lacks while it answers; `v2` and `graphql` hold to one API.
	let graphqlRetired = choice === 'v2';
	let discount: {readonly value: ServerlessDiscount | undefined; readonly at: number} | undefined;

	const discountFromGraphql = async (signal: AbortSignal | undefined): Promise<ServerlessDiscount | undefined> => {
		if (graphqlRetired || (discount !== undefined && now() - discount.at < discountEveryMs)) {
			return discount?.value;
		}

		try {
			const {discount: value} = await graphql.endpointsAndDiscount({signal});
			discount = {value, at: now()};
			return value;
		} catch (error) {
			if (isGone(error)) {
				graphqlRetired = true;
				discount = undefined;
				notice?.('GraphQL answers 410 Gone: the serverless discount is no longer published (shown as –)');
				return undefined;
			}

			// Kept as last read (or unknown) until the next try: the endpoints answered.
			discount = {value: discount?.value, at: now()};
			return discount.value;
		}
	};

	const through = <K extends keyof ManagementApi>(name: K): ManagementApi[K] =>
		(async (...parameters: unknown[]) => {
			const call = async (api: ManagementApi) => (api[name] as (...values: unknown[]) => Promise<unknown>)(...parameters);
			if (inUse === 'graphql') {
				return call(graphql);
			}

			if (graphqlOnly.has(name) && choice === 'v2') {
				return call(v2);
			}

			if (graphqlOnly.has(name)) {
				if (graphqlRetired) {
					throw new ApiError('invalid', 'spot pods: REST API v2 has none, and GraphQL, which had them, is retired (410 Gone); deploy or resume on demand');
				}

				try {
					return await call(graphql);
				} catch (error) {
					if (isGone(error)) {
						graphqlRetired = true;
						notice?.('GraphQL answers 410 Gone: spot pods and the serverless discount are no longer reachable');
					}

					throw error;
				}
			}

			try {
				const answer = await call(v2);
				if (listReads.has(name)) {
					settled = true;
				}

				return answer;
			} catch (error) {
				if (settled || !listReads.has(name) || !isMissingRoute(error)) {
					throw error;
				}

				settled = true;
				inUse = 'graphql';
				notice?.(`this service has no REST v2 (${(error as ApiError).status ?? ''} on a list): podtop uses GraphQL`);
				return call(graphql);
			}
		}) as ManagementApi[K];

	/** GraphQL's GPU types for one count and cloud, read at most every gpuFactsEveryMs while it answers. */
	const gpuFacts = new Map<string, {readonly types: ReadonlyMap<string, GpuTypeRecord>; readonly at: number}>();
	const graphqlGpuFacts = async (options: Parameters<ManagementApi['gpuTypes']>[0] = {}) => {
		const key = `${options.gpuCount ?? 1}:${String(options.secureCloud)}`;
		const cached = gpuFacts.get(key);
		if (graphqlRetired || (cached && now() - cached.at < gpuFactsEveryMs)) {
			return cached?.types;
		}

		try {
			const types = new Map((await graphql.gpuTypes(options)).map(type => [type.id, type]));
			gpuFacts.set(key, {types, at: now()});
			return types;
		} catch (error) {
			if (isGone(error)) {
				graphqlRetired = true;
				notice?.('GraphQL answers 410 Gone: spot prices and free GPU counts are no longer published (shown as –)');
				return undefined;
			}

			gpuFacts.set(key, {types: cached?.types ?? new Map(), at: now()});
			return cached?.types;
		}
	};

	/** Workers, releases, logs and bills: only v2 publishes them; after a fall back to GraphQL they are refused, said once why. */
	const v2Only = (): Pick<ManagementApi, V2Only> => {
		const only = <K extends V2Only>(name: K): NonNullable<ManagementApi[K]> =>
			(async (...parameters: unknown[]) => {
				if (inUse === 'graphql') {
					throw new ApiError('invalid', `${v2OnlyWords[name]}: this service has no REST v2, and GraphQL does not publish them`);
				}

				return (v2[name] as (...values: unknown[]) => Promise<unknown>)(...parameters);
			}) as NonNullable<ManagementApi[K]>;
		const names = Object.keys(v2OnlyWords) as V2Only[];
		return Object.fromEntries(choice === 'graphql' ? [] : names.filter(name => v2[name]).map(name => [name, only(name)]));
	};

	/** The balance: GraphQL's alone, while it answers; once it is gone (410), or never asked (`v2`), not published. */
	const balance: NonNullable<ManagementApi['balance']> = async (options = {}) => {
		if (graphqlRetired || !graphql.balance) {
			return 'not-published';
		}

		try {
			return await graphql.balance(options);
		} catch (error) {
			if (isGone(error)) {
				graphqlRetired = true;
				return 'not-published';
			}

			throw error;
		}
	};

	const v2GpuTypes = through('gpuTypes');
	const endpoints = through('endpoints');
	return {
		inUse: () => inUse,
		balance,
		endpoints,
		async endpointsAndDiscount(options = {}) {
			if (inUse === 'graphql') {
				return through('endpointsAndDiscount')(options);
			}

			const records = await endpoints(options);
			// The fall back to GraphQL may have happened in that very call.
			return (inUse as string) === 'graphql'
				? {endpoints: records, discount: (await graphql.endpointsAndDiscount(options)).discount}
				: {endpoints: records, discount: await discountFromGraphql(options.signal)};
		},
		endpointForEdit: through('endpointForEdit'),
		pods: through('pods'),
		podSummaries: through('podSummaries'),
		pod: through('pod'),
		podsById: through('podsById'),
		async gpuTypes(options = {}) {
			const types = await v2GpuTypes(options);
			if (inUse === 'graphql' || choice !== 'auto') {
				return types;
			}

			const facts = await graphqlGpuFacts(options);
			return facts ? types.map(type => withGraphqlFacts(type, facts.get(type.id))) : types;
		},
		saveEndpoint: through('saveEndpoint'),
		/** v2 sends only what changed (PATCH); GraphQL replaces the record, so it is read whole, changed, and sent back. */
		async updateEndpoint(id, changes, options = {}) {
			if (inUse === 'v2' && v2.updateEndpoint) {
				return v2.updateEndpoint(id, changes, options);
			}

			const record = await graphql.endpointForEdit(id, options);
			if (!record) {
				throw new ApiError('not-found', `endpoint ${id} is not in this account`, {status: 404});
			}

			return graphql.saveEndpoint({...record, ...changes}, options);
		},
		deleteEndpoint: through('deleteEndpoint'),
		deployOnDemand: through('deployOnDemand'),
		rentInterruptable: through('rentInterruptable'),
		resume: through('resume'),
		bidResume: through('bidResume'),
		stop: through('stop'),
		terminate: through('terminate'),
		...v2Only(),
	};
}

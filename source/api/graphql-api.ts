import {ClientError, GraphQLClient} from 'graphql-request';
import {fetch as undiciFetch} from 'undici';
import {withLinkedSignal} from '../lib/linked-signal.js';
import type {EndpointRecord, SavedEndpoint, ServerlessDiscount} from '../model/endpoint.js';
import type {GpuTypeRecord} from '../model/gpu-type.js';
import type {ManagementApi} from '../model/management-api.js';
import type {PodRecord, PodSummary} from '../model/pod.js';
import {ApiError, fromTransportError} from './errors.js';
import {graphqlError} from './graphql-errors.js';
import {queryList} from './graphql-list.js';
import {postQuery} from './graphql-post.js';
import {documents, podsByIdDocument} from './graphql-documents.js';
import type {Pools} from './pools.js';

/** Maps graphql-request's errors: HTTP statuses by kind, resolver errors by `errors[0].message`. */
function toApiError(error: unknown, label: string): ApiError {
	if (error instanceof ClientError) {
		const {status, errors, headers} = error.response;
		return graphqlError({status, errors, retryAfter: headers?.get?.('retry-after')}, label);
	}

	return fromTransportError(error, label);
}

/**
The management plane over GraphQL: podtop's records were modelled on GraphQL's answers, so the
documents select exactly the records' fields and an answer is a record field for field.
Typed functions for every GraphQL operation, through graphql-request with its `fetch` routed
through undici's pool for the origin. The key goes in the Authorization header, never the URL.
*/
export function createGraphqlApi({url, apiKey, pools}: {readonly url: string; readonly apiKey: string; readonly pools: Pools}): ManagementApi {
	const dispatcher = pools.for(url);
	const headers = {authorization: `Bearer ${apiKey}`, 'user-agent': 'podtop'};
	const endpointUrl = new URL(url);
	const client = new GraphQLClient(url, {
		headers,
		fetch: (async (input: string | URL | Request, init?: RequestInit) =>
			undiciFetch(input as string, {...(init as object), dispatcher})) as unknown as typeof fetch,
	});
	/** The caller's signal (the scheduler's, which lives as long as podtop) with the request's time limit. */
	const withTimeout = async <T>(signal: AbortSignal | undefined, run: (limited: AbortSignal) => Promise<T>) =>
		withLinkedSignal(signal, pools.timeouts.headersMs + pools.timeouts.bodyMs, run);

	const call = async <T>(label: string, document: string, variables: Record<string, unknown>, signal: AbortSignal | undefined): Promise<T> => {
		try {
			return await withTimeout(signal, async limited => client.request<T>({document, variables, signal: limited}));
		} catch (error) {
			throw toApiError(error, label);
		}
	};

	/** The account's pods, read as they stream in (10,000 pods are 5 MB): see queryList. */
	const podList = async <T>(document: string, signal: AbortSignal | undefined): Promise<T[]> =>
		withTimeout(signal, async limited =>
			queryList<T>({pool: dispatcher, url: endpointUrl, headers, document, path: ['myself', 'pods'], signal: limited, label: 'pods'}),
		);

	const required = <T>(value: T | null | undefined, label: string): T => {
		if (value === null || value === undefined) {
			throw new ApiError('graphql', `${label}: the service returned nothing`);
		}

		return value;
	};

	/** One document answers both: the endpoints and the account's serverless discount. */
	const endpointsAndDiscount: ManagementApi['endpointsAndDiscount'] = async (options = {}) => {
		const {myself} = await call<{myself: {endpoints: EndpointRecord[]; serverlessDiscount?: ServerlessDiscount | null} | null}>(
			'endpoints',
			documents.endpoints,
			{},
			options.signal,
		);
		return {endpoints: myself?.endpoints ?? [], discount: myself?.serverlessDiscount ?? undefined};
	};

	return {
		async balance(options = {}) {
			const {myself} = await call<{myself: {clientBalance?: unknown; currentSpendPerHr?: unknown} | null}>('balance', documents.balance, {}, options.signal);
			const {clientBalance, currentSpendPerHr} = myself ?? {};
			// A figure that is not a number is not shown as one (never $0 for "unknown").
			return typeof clientBalance === 'number' && Number.isFinite(clientBalance)
				? {balance: clientBalance, spendPerHour: typeof currentSpendPerHr === 'number' && Number.isFinite(currentSpendPerHr) ? currentSpendPerHr : 0}
				: 'not-published';
		},
		endpoints: async (options = {}) => (await endpointsAndDiscount(options)).endpoints,
		endpointsAndDiscount,
		endpointForEdit: async (id, options = {}) =>
			(await call<{myself: {endpoints: SavedEndpoint[]} | null}>(`endpoint ${id}`, documents.endpointsFull, {}, options.signal)).myself?.endpoints.find(
				endpoint => endpoint.id === id,
			),
		pods: async (options = {}) => podList<PodRecord>(documents.pods, options.signal),
		podSummaries: async (options = {}) => podList<PodSummary>(documents.podSummaries, options.signal),
		pod: async (podId, options = {}) => (await call<{pod: PodRecord | null}>(`pod ${podId}`, documents.pod, {podId}, options.signal)).pod,
		async podsById(podIds, options = {}) {
			if (podIds.length === 0) {
				return [];
			}

			const variables = Object.fromEntries(podIds.map((podId, index) => [`p${index}`, podId]));
			const answer = await withTimeout(options.signal, async limited =>
				postQuery<Record<string, PodRecord | null>>({
					pool: dispatcher,
					url: endpointUrl,
					headers,
					document: podsByIdDocument(podIds.length),
					variables,
					signal: limited,
					label: 'pods on screen',
				}),
			);
			return podIds.map((_, index) => answer[`p${index}`] ?? null);
		},
		gpuTypes: async (options = {}) =>
			(
				await call<{gpuTypes: GpuTypeRecord[]}>(
					'gpuTypes',
					documents.gpuTypes,
					{gpuCount: options.gpuCount ?? 1, secureCloud: options.secureCloud ?? null},
					options.signal,
				)
			).gpuTypes,
		saveEndpoint: async (input, options = {}) =>
			required(
				(await call<{saveEndpoint: EndpointRecord | null}>('saveEndpoint', documents.saveEndpoint, {input}, options.signal)).saveEndpoint,
				'saveEndpoint',
			),
		async deleteEndpoint(id, options = {}) {
			await call('deleteEndpoint', documents.deleteEndpoint, {id}, options.signal);
		},
		deployOnDemand: async (input, options = {}) =>
			required(
				(await call<{podFindAndDeployOnDemand: PodRecord | null}>('podFindAndDeployOnDemand', documents.deployOnDemand, {input}, options.signal))
					.podFindAndDeployOnDemand,
				'podFindAndDeployOnDemand',
			),
		rentInterruptable: async (input, options = {}) =>
			required(
				(await call<{podRentInterruptable: PodRecord | null}>('podRentInterruptable', documents.rentInterruptable, {input}, options.signal))
					.podRentInterruptable,
				'podRentInterruptable',
			),
		resume: async (podId, gpuCount, options = {}) =>
			required(
				(await call<{podResume: PodRecord | null}>(`podResume ${podId}`, documents.resume, {input: {podId, gpuCount}}, options.signal)).podResume,
				'podResume',
			),
		bidResume: async (podId, bidPerGpu, gpuCount, options = {}) =>
			required(
				(await call<{podBidResume: PodRecord | null}>(`podBidResume ${podId}`, documents.bidResume, {input: {podId, bidPerGpu, gpuCount}}, options.signal))
					.podBidResume,
				'podBidResume',
			),
		stop: async (podId, options = {}) =>
			required((await call<{podStop: PodRecord | null}>(`podStop ${podId}`, documents.stop, {input: {podId}}, options.signal)).podStop, 'podStop'),
		async terminate(podId, options = {}) {
			await call(`podTerminate ${podId}`, documents.terminate, {input: {podId}}, options.signal);
		},
	};
}

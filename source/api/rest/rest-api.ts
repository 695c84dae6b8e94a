/* eslint-disable new-cap -- openapi-fetch names its methods as HTTP does (GET, POST, PATCH, DELETE). */
import type {GpuTypeRecord} from '../../model/gpu-type.js';
import type {CallOptions, ManagementApi} from '../../model/management-api.js';
import type {PodRecord} from '../../model/pod.js';
import type {SpendQuery} from '../../model/spend.js';
import {ApiError} from '../errors.js';
import type {Pools} from '../pools.js';
import {createEndpointBody, needsCurrentScaling, updateEndpointBody} from './endpoint-body.js';
import {endpointRecord, savedEndpoint} from './endpoint-record.js';
import {GpuNames} from './gpu-names.js';
import {betterLevel, dataCenterLevels, gpuTypeRecord, type V2GpuType} from './gpu-type-record.js';
import {createLogStream} from './log-stream.js';
import {createPodBody} from './pod-body.js';
import {readPodList} from './pod-list.js';
import {listRunningPrice, podRecord, podSummary, type V2Pod} from './pod-record.js';
import {createRestCall} from './rest-call.js';
import {createRestClient, type RestAnswerSeen} from './rest-client.js';
import {accountSpend, resourceSpend} from './spend-record.js';
import {rollout, workerList} from './worker-record.js';

export type {RestAnswerSeen} from './rest-client.js';

export type RestApiOptions = {
	/** The origin whose paths carry `/v2` (default `https://api.runpod.io`). */
	readonly baseUrl?: string;
	readonly apiKey: string;
	readonly pools: Pools;
	/** Called after every answer (a 429 and an edge proxy's empty answer too), with its status and headers: the rate budget reads them. */
	readonly onAnswer?: (answer: RestAnswerSeen) => void;
};

export const defaultRestBaseUrl = 'https://api.runpod.io';

type Cloud = 'SECURE' | 'COMMUNITY';

/** A spend read's query on the wire: RFC 3339 times, or `lastN`. */
const billingQuery = ({bucketSize, from, to, lastN}: SpendQuery) => ({
	bucketSize,
	...(lastN === undefined
		? {...(from === undefined ? {} : {startTime: new Date(from).toISOString()}), ...(to === undefined ? {} : {endTime: new Date(to).toISOString()})}
		: {lastN}),
});

/**
The management plane over REST API v2: typed requests (openapi-fetch over the spec's generated types)
through the origin's undici pool, each answer mapped to podtop's records here, each failure to an
ApiError. Pods come with their runtime from one list request, read as a stream. v2 does not publish
the serverless discount (undefined), spot pods (a spot deploy or bid resume is refused before anything
is sent), nor a GPU type's free count (a stock level instead). Logs stream as server-sent events (see createLogStream).
*/
export function createRestApi({baseUrl = defaultRestBaseUrl, apiKey, pools, onAnswer}: RestApiOptions): ManagementApi {
	const client = createRestClient({baseUrl, apiKey, pools, onAnswer});
	const call = createRestCall(pools, apiKey);
	const names = new GpuNames(async () =>
		call(
			'GPU types',
			undefined,
			async signal => client.GET('/v2/catalog/gpus', {signal}),
			data => data.gpus,
		),
	);

	/** Records for v2 pods, each GPU's display name from the catalog (read first if a pod names a type not known yet). */
	const podRecords = async (pods: readonly V2Pod[]): Promise<PodRecord[]> => {
		const known = await names.for(pods.flatMap(pod => (pod.gpu ? [pod.gpu.id] : [])));
		return pods.map(pod => podRecord(pod, known, names.prices));
	};

	/** Every pod, streamed in; names of GPU types not known yet are filled in after the list, from one catalog read. */
	const podList = async (signal: AbortSignal | undefined): Promise<PodRecord[]> => {
		const unknown = new Set<string>();
		const records = await call(
			'pods',
			signal,
			async limited => client.GET('/v2/pods', {signal: limited, parseAs: 'stream'}),
			async body =>
				readPodList(
					body as unknown as AsyncIterable<Uint8Array>,
					(pod: V2Pod) => {
						if (pod.gpu && !names.known.has(pod.gpu.id)) {
							unknown.add(pod.gpu.id);
						}

						return podRecord(pod, names.known, names.prices);
					},
					'pods',
				),
		);
		if (unknown.size === 0) {
			return records;
		}

		const known = await names.for(unknown);
		return records.map(record => {
			const id = record.machine?.gpuDisplayName;
			if (!id || !unknown.has(id) || !known.has(id)) {
				return record;
			}

			// A stopped pod's running price is the list price of its type, known only now.
			const costPerHr = record.costPerHr === null ? listRunningPrice(names.prices.get(id), record.cloudType, record.gpuCount ?? 1) : record.costPerHr;
			return {...record, costPerHr, machine: {...record.machine, gpuDisplayName: known.get(id)}};
		});
	};

	const pod = async (podId: string, signal?: AbortSignal): Promise<PodRecord | null> => {
		try {
			const answer = await call(
				`pod ${podId}`,
				signal,
				async limited => client.GET('/v2/pods/{id}', {params: {path: {id: podId}}, signal: limited}),
				data => data,
			);
			return (await podRecords([answer]))[0]!;
		} catch (error) {
			if (error instanceof ApiError && error.kind === 'not-found') {
				return null;
			}

			throw error;
		}
	};

	/** `start`, `stop` or `restart`: the pod after it (409 when the pod's state does not allow it now). */
	const act = async (podId: string, action: 'start' | 'stop' | 'restart', options: CallOptions): Promise<PodRecord> => {
		const answer = await call(
			`${action} pod ${podId}`,
			options.signal,
			async limited => client.POST('/v2/pods/{id}/action', {params: {path: {id: podId}}, body: {action}, signal: limited}),
			data => {
				if (typeof data !== 'object' || data === null || !('id' in data)) {
					throw new ApiError('server', `${action} pod ${podId}: the service answered without the pod`);
				}

				return data;
			},
		);
		return (await podRecords([answer]))[0]!;
	};

	const endpoint = async (id: string, signal: AbortSignal | undefined) =>
		call(
			`endpoint ${id}`,
			signal,
			async limited => client.GET('/v2/serverless/{id}', {params: {path: {id}}, signal: limited}),
			data => data,
		);

	/** The catalog's GPU types with their stock for pods, for a count and one cloud. */
	const catalog = async (count: number, cloud: Cloud, signal: AbortSignal | undefined): Promise<readonly V2GpuType[]> =>
		call(
			'GPU types',
			signal,
			async limited => client.GET('/v2/catalog/gpus', {params: {query: {include: ['AVAILABILITY'], product: ['POD'], count, cloud}}, signal: limited}),
			data => {
				names.learn(data.gpus);
				return data.gpus;
			},
		);

	const endpoints: ManagementApi['endpoints'] = async (options = {}) =>
		call(
			'endpoints',
			options.signal,
			async limited => client.GET('/v2/serverless', {signal: limited}),
			data => data.endpoints.map(item => endpointRecord(item)),
		);

	/** A read of one endpoint's sub-resource, undefined when the endpoint is gone (404). */
	const unlessGone = async <T>(read: () => Promise<T>): Promise<T | undefined> => {
		try {
			return await read();
		} catch (error) {
			if (error instanceof ApiError && error.kind === 'not-found') {
				return undefined;
			}

			throw error;
		}
	};

	return {
		endpoints,
		streamLogs: createLogStream({baseUrl, apiKey, pools, onAnswer}),
		workers: async (endpointId, options = {}) =>
			unlessGone(async () =>
				call(
					`workers of ${endpointId}`,
					options.signal,
					async limited => client.GET('/v2/serverless/{id}/workers', {params: {path: {id: endpointId}}, signal: limited}),
					data => workerList(endpointId, data, Date.now()),
				),
			),
		releases: async (endpointId, options = {}) =>
			unlessGone(async () =>
				call(
					`releases of ${endpointId}`,
					options.signal,
					async limited => client.GET('/v2/serverless/{id}/releases', {params: {path: {id: endpointId}}, signal: limited}),
					data => rollout(endpointId, data),
				),
			),
		spend: async (query, options = {}) =>
			call(
				'billing',
				options.signal,
				async limited => client.GET('/v2/billing', {params: {query: billingQuery(query)}, signal: limited}),
				data => accountSpend(data),
			),
		async resourceSpend(kind, query, options = {}) {
			const params = {query: billingQuery(query)};
			const label = `billing of ${kind}s`;
			const {signal} = options;
			switch (kind) {
				case 'pod': {
					return call(
						label,
						signal,
						async limited => client.GET('/v2/billing/pods', {params, signal: limited}),
						data => resourceSpend(kind, data),
					);
				}

				case 'endpoint': {
					return call(
						label,
						signal,
						async limited => client.GET('/v2/billing/serverless', {params, signal: limited}),
						data => resourceSpend(kind, data),
					);
				}

				case 'volume': {
					return call(
						label,
						signal,
						async limited => client.GET('/v2/billing/network-volumes', {params, signal: limited}),
						data => resourceSpend(kind, data),
					);
				}

				case 'cluster': {
					return call(
						label,
						signal,
						async limited => client.GET('/v2/billing/clusters', {params, signal: limited}),
						data => resourceSpend(kind, data),
					);
				}
			}
		},
		endpointsAndDiscount: async (options = {}) => ({endpoints: await endpoints(options), discount: undefined}),
		async endpointForEdit(id, options = {}) {
			try {
				return savedEndpoint(await endpoint(id, options.signal));
			} catch (error) {
				if (error instanceof ApiError && error.kind === 'not-found') {
					return undefined;
				}

				throw error;
			}
		},
		pods: async (options = {}) => podList(options.signal),
		podSummaries: async (options = {}) => (await podList(options.signal)).map(record => podSummary(record)),
		pod: async (podId, options = {}) => pod(podId, options.signal),
		async podsById(podIds, options = {}) {
			if (podIds.length === 0) {
				return [];
			}

			// One pod is one small request; more are one list request, whatever their number (the budget counts requests).
			if (podIds.length === 1) {
				return [await pod(podIds[0]!, options.signal)];
			}

			const byId = new Map((await podList(options.signal)).map(record => [record.id, record]));
			return podIds.map(id => byId.get(id) ?? null);
		},
		async gpuTypes(options = {}) {
			const count = options.gpuCount ?? 1;
			const clouds: Cloud[] = options.secureCloud === undefined ? ['SECURE', 'COMMUNITY'] : [options.secureCloud ? 'SECURE' : 'COMMUNITY'];
			const answers = await Promise.all(clouds.map(async cloud => catalog(count, cloud, options.signal)));
			const cloud = clouds.length === 1 ? clouds[0] : undefined;
			const levels = new Map<string, V2GpuType['availability']>();
			for (const types of answers) {
				for (const type of types) {
					levels.set(type.id, betterLevel(levels.get(type.id), type.availability ?? 'NONE'));
				}
			}

			const seen = new Set<string>();
			const records: GpuTypeRecord[] = [];
			const all = answers.flat();
			for (const type of all) {
				if (!seen.has(type.id)) {
					seen.add(type.id);
					// Each data center's stock, from the same answers (no request more): the diagnosis of a THROTTLED endpoint reads them.
					records.push(gpuTypeRecord(type, levels.get(type.id), cloud, dataCenterLevels(all.filter(each => each.id === type.id))));
				}
			}

			return records;
		},
		async saveEndpoint(input, options = {}) {
			if (input.id) {
				const {id, ...fields} = input;
				return endpointRecord(
					await call(
						`save endpoint ${id}`,
						options.signal,
						async limited => client.PATCH('/v2/serverless/{id}', {params: {path: {id}}, body: updateEndpointBody(fields), signal: limited}),
						data => data,
					),
				);
			}

			return endpointRecord(
				await call(
					'create endpoint',
					options.signal,
					async limited => client.POST('/v2/serverless', {body: createEndpointBody(input), signal: limited}),
					data => data,
				),
			);
		},
		async updateEndpoint(id, changes, options = {}) {
			const current = needsCurrentScaling(changes) ? endpointRecord(await endpoint(id, options.signal)) : undefined;
			return endpointRecord(
				await call(
					`update endpoint ${id}`,
					options.signal,
					async limited => client.PATCH('/v2/serverless/{id}', {params: {path: {id}}, body: updateEndpointBody(changes, current), signal: limited}),
					data => data,
				),
			);
		},
		async deleteEndpoint(id, options = {}) {
			await call(
				`delete endpoint ${id}`,
				options.signal,
				async limited => client.DELETE('/v2/serverless/{id}', {params: {path: {id}}, signal: limited}),
				() => undefined,
			);
		},
		async deployOnDemand(input, options = {}) {
			const body = createPodBody(input, 'deploy');
			const created = await call(
				'deploy',
				options.signal,
				async limited => client.POST('/v2/pods', {body, signal: limited}),
				data => data,
			);
			return (await podRecords([created]))[0]!;
		},
		async rentInterruptable(input) {
			createPodBody(input, 'spot deploy');
			throw new ApiError('invalid', 'spot deploy: REST API v2 has no spot (interruptible) pods; deploy on demand');
		},
		resume: async (podId, _gpuCount, options = {}) => act(podId, 'start', options),
		async bidResume(podId) {
			throw new ApiError('invalid', `bid resume pod ${podId}: REST API v2 has no spot (interruptible) pods; resume it on demand`);
		},
		stop: async (podId, options = {}) => act(podId, 'stop', options),
		restart: async (podId, options = {}) => act(podId, 'restart', options),
		async terminate(podId, options = {}) {
			await call(
				`terminate pod ${podId}`,
				options.signal,
				async limited => client.DELETE('/v2/pods/{id}', {params: {path: {id: podId}}, signal: limited}),
				() => undefined,
			);
		},
	};
}

import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {Pools} from '../../../source/api/pools.js';
import {createRestApi, type RestAnswerSeen} from '../../../source/api/rest/rest-api.js';
import type {ManagementApi} from '../../../source/model/management-api.js';
import {closeRestSims, startRestSim, type RestSim} from '../../sim/rest/rest-client.js';

let sim: RestSim;
let pools: Pools;
let api: ManagementApi;
const seen: RestAnswerSeen[] = [];

beforeAll(async () => {
	sim = await startRestSim({apiKey: 'rpa_RESTSECRET0123456789', restQuota: {minute: 10_000, hour: 100_000, day: 1_000_000}});
	pools = new Pools();
	api = createRestApi({baseUrl: sim.url, apiKey: sim.apiKey, pools, onAnswer: answer => seen.push(answer)});
});

afterAll(async () => {
	await pools.close();
	await closeRestSims();
});

const joined = (items: readonly string[]) => (items.length > 0 ? items.join(',') : null);

describe('REST v2 adapter: reads, each field mapped from what the service sent', () => {
	test('endpoints: workers, scaling, pools, data centers, network volume, flashboot; endpointForEdit adds env, timeout, CUDA; no discount', async () => {
		const sent = (await sim.rest('GET', '/v2/serverless')).body.endpoints as any[];
		const {endpoints, discount} = await api.endpointsAndDiscount();
		expect(discount).toBeUndefined();
		expect(endpoints.map(endpoint => endpoint.id)).toEqual(sent.map(endpoint => endpoint.id));
		expect(new Set(sent.map(endpoint => endpoint.flashboot)).size).toBeGreaterThan(1);
		for (const [index, wire] of sent.entries()) {
			expect(endpoints[index]).toEqual({
				id: wire.id,
				name: wire.name,
				gpuIds: joined(wire.gpu.pools),
				gpuCount: wire.gpu.count,
				idleTimeout: wire.workers.idleTimeout ?? null,
				locations: joined(wire.dataCenterIds) ?? '',
				networkVolumeId: wire.networkVolumes[0] ?? null,
				scalerType: wire.scaling.type,
				scalerValue: wire.scaling.queueDelay ?? wire.scaling.requestCount,
				workersMin: wire.workers.min,
				workersMax: wire.workers.max,
				flashBootType: wire.flashboot,
			});
		}

		expect(sent.some(wire => wire.networkVolumes.length > 0 && wire.dataCenterIds.length > 1)).toBe(true);
		const wire = sent[0];
		const saved = await api.endpointForEdit(wire.id);
		expect(saved).toMatchObject({
			id: wire.id,
			executionTimeoutMs: wire.timeout,
			env: Object.entries(wire.env).map(([key, value]) => ({key, value})),
			allowedCudaVersions: wire.gpu.allowedCudaVersions.join(','),
		});
		expect(await api.endpointForEdit('nope')).toBeUndefined();
	});

	test('pods: one list with runtime; status, cost, cloud, data center, CUDA, actions, the GPU display name, ports, volumes, env', async () => {
		const sent = (await sim.rest('GET', '/v2/pods')).body.pods as any[];
		const gpus = (await sim.rest('GET', '/v2/catalog/gpus')).body.gpus as any[];
		const catalog = new Map(gpus.map(gpu => [gpu.id, gpu.name]));
		const prices = new Map(gpus.map(gpu => [gpu.id, gpu.price]));
		// v2 says cost 0 once a pod is EXITED: its running price is its type's list price on its cloud, times its GPUs.
		const running = (wire: any) =>
			wire.status === 'EXITED' && wire.gpu
				? Math.round(prices.get(wire.gpu.id)[wire.cloud === 'COMMUNITY' ? 'community' : 'secure'] * (wire.gpu.count ?? 1) * 100) / 100
				: wire.cost;
		const before = seen.length;
		const pods = await api.pods();
		expect(pods.map(pod => pod.id)).toEqual(sent.map(pod => pod.id));
		for (const [index, wire] of sent.entries()) {
			const record = pods[index]!;
			expect(record).toMatchObject({
				name: wire.name,
				imageName: wire.image,
				desiredStatus: wire.status,
				costPerHr: running(wire),
				gpuCount: wire.gpu?.count ?? 0,
				cloudType: wire.cloud,
				dataCenterId: wire.dataCenterId,
				cudaVersion: wire.cudaVersion,
				actions: wire.actions,
				containerDiskInGb: wire.disk,
				volumeInGb: wire.mounts.persistent?.size ?? 0,
				env: Object.entries(wire.env).map(([key, value]) => `${key}=${String(value)}`),
				machine: {gpuDisplayName: wire.gpu ? catalog.get(wire.gpu.id) : null, location: wire.dataCenterId},
			});
			expect(record.runtime === null).toBe(wire.runtime === null);
			if (wire.runtime) {
				expect(record.runtime!.gpus).toHaveLength(wire.runtime.gpus.length);
				expect(record.runtime!.ports!.map(port => [port.privatePort, port.publicPort, port.type, port.ip])).toEqual(
					wire.runtime.ports.map((port: any) => [port.private, port.public, port.type, port.ip]),
				);
				expect(record.runtime!.ports!.map(port => port.isIpPublic)).toEqual(wire.runtime.ports.map((port: any) => !port.ip.startsWith('100.65.')));
			}
		}

		expect(new Set(pods.map(pod => pod.desiredStatus))).toEqual(expect.objectContaining(new Set(['RUNNING', 'EXITED'])));
		expect(sent.filter(pod => pod.status === 'EXITED').every(pod => pod.cost === 0)).toBe(true);
		expect(pods.filter(pod => pod.desiredStatus === 'EXITED' && pod.gpuCount! > 0).every(pod => pod.costPerHr! > 0)).toBe(true);
		// The list and, the first time, the catalog for the GPU types' names: no request per pod.
		expect(seen.length - before).toBeLessThanOrEqual(2);
		expect((await api.podSummaries()).map(pod => pod.id)).toEqual(sent.map(pod => pod.id));
	});

	test('pod, podsById: one pod by its URL-encoded id (null when gone), several from one list', async () => {
		const [first, second] = (await sim.rest('GET', '/v2/pods')).body.pods as any[];
		expect(await api.pod(first.id)).toMatchObject({id: first.id, desiredStatus: first.status});
		expect(await api.pod('no/such pod')).toBeNull();
		const before = seen.length;
		expect((await api.podsById([second.id, 'gone', first.id])).map(pod => pod?.id ?? null)).toEqual([second.id, null, first.id]);
		expect(seen.length - before).toBe(1);
		expect(await api.podsById([])).toEqual([]);
	});

	test('gpuTypes: the catalog with pod availability for a count and cloud (both clouds: the better of two reads)', async () => {
		const secure = (await sim.rest('GET', '/v2/catalog/gpus?include=AVAILABILITY&product=POD&count=2&cloud=SECURE')).body.gpus as any[];
		const types = await api.gpuTypes({gpuCount: 2, secureCloud: true});
		const words: Record<string, string> = {NONE: 'None', LOW: 'Low', MEDIUM: 'Medium', HIGH: 'High'};
		expect(types.map(type => type.id)).toEqual(secure.map(gpu => gpu.id));
		for (const [index, wire] of secure.entries()) {
			expect(types[index]).toEqual({
				id: wire.id,
				displayName: wire.name,
				manufacturer: wire.manufacturer === 'NVIDIA' ? 'Nvidia' : wire.manufacturer,
				memoryInGb: wire.memory,
				maxGpuCount: Math.max(wire.maxCount.secure, wire.maxCount.community),
				securePrice: wire.secure ? wire.price.secure : null,
				communityPrice: wire.community ? wire.price.community : null,
				secureSpotPrice: null,
				communitySpotPrice: null,
				lowestPrice: {
					stockStatus: words[wire.availability],
					maxUnreservedGpuCount: wire.availability === 'NONE' ? 0 : null,
					minimumBidPrice: null,
					uninterruptablePrice: wire.secure ? wire.price.secure : null,
				},
				pool: wire.pool,
				// Each data center's stock, as the answer gives it (the data centers offering none of it are not named).
				...(wire.dataCenters?.length
					? {
							dataCenterStock: Object.fromEntries(
								(wire.dataCenters as Array<{id: string; availability: string}>).map(center => [center.id, words[center.availability]]),
							),
						}
					: {}),
			});
		}

		expect(new Set(types.map(type => type.lowestPrice?.stockStatus)).size).toBeGreaterThan(1);
		const before = seen.length;
		const both = await api.gpuTypes();
		expect(seen.length - before).toBe(2);
		const order = ['None', 'Low', 'Medium', 'High'];
		const secureOnly = await api.gpuTypes({secureCloud: true});
		expect(both.map(type => type.id)).toEqual(secureOnly.map(type => type.id));
		for (const [index, type] of both.entries()) {
			expect(order.indexOf(type.lowestPrice!.stockStatus!)).toBeGreaterThanOrEqual(order.indexOf(secureOnly[index]!.lowestPrice!.stockStatus!));
			expect(type.lowestPrice!.uninterruptablePrice).toBe(
				Math.min(...[type.securePrice, type.communityPrice].filter((price): price is number => price !== null)),
			);
		}
	});

	test('onAnswer saw every answer with its status and rate headers', () => {
		expect(seen.length).toBeGreaterThan(8);
		expect(seen.every(answer => answer.status === 200 || answer.status === 404)).toBe(true);
		expect(seen.every(answer => answer.headers.get('ratelimit')?.includes('"minute"'))).toBe(true);
	});
});

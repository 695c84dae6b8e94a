import {afterAll, beforeAll, expect, test} from 'vitest';
import {createGraphqlApi} from '../../../source/api/graphql-api.js';
import {Pools} from '../../../source/api/pools.js';
import {createRestApi} from '../../../source/api/rest/rest-api.js';
import type {ManagementApi} from '../../../source/model/management-api.js';
import type {PodRecord} from '../../../source/model/pod.js';
import {dataCenters} from '../../../source/sim/market/gpu-catalogue.js';
import {closeRestSims, startRestSim, type RestSim} from '../../sim/rest/rest-client.js';

let sim: RestSim;
let pools: Pools;
let graphql: ManagementApi;
let rest: ManagementApi;

beforeAll(async () => {
	sim = await startRestSim({podCount: 60, endpointCount: 20, restQuota: {minute: 10_000, hour: 100_000, day: 1_000_000}});
	pools = new Pools();
	graphql = createGraphqlApi({url: `${sim.url}/graphql`, apiKey: sim.apiKey, pools});
	rest = createRestApi({baseUrl: sim.url, apiKey: sim.apiKey, pools});
});

afterAll(async () => {
	await pools.close();
	await closeRestSims();
});

const byId = <T extends {id: string}>(records: readonly T[]) => new Map(records.map(record => [record.id, record]));

/** The fields GraphQL's list selects and v2 has too. */
const listed = (record: PodRecord) => ({
	name: record.name,
	imageName: record.imageName,
	desiredStatus: record.desiredStatus,
	gpuCount: record.gpuCount,
	volumeInGb: record.volumeInGb,
	machine: record.machine,
	// v2 bills a stopped pod's compute at 0 (its volume still bills): GraphQL says the same by status.
	costPerHr: record.desiredStatus === 'EXITED' ? 0 : record.costPerHr,
	gpus: record.runtime?.gpus?.length,
});

/** What a pod's details add (GraphQL reads them one pod at a time). */
const detailed = (record: PodRecord) => ({
	...listed(record),
	containerDiskInGb: record.containerDiskInGb,
	volumeMountPath: record.volumeMountPath,
	env: record.env,
	ports: record.runtime?.ports?.map(({ip, isIpPublic, privatePort, publicPort, type}) => ({ip, isIpPublic, privatePort, publicPort, type})),
});

// "The same panes with the same figures": each field both APIs have is the same record field, read from one fleet.
test('pods: GraphQL and v2 give the same records for the fields both have', async () => {
	const [fromGraphql, fromRest] = await Promise.all([graphql.pods(), rest.pods()]);
	expect(fromRest.map(pod => pod.id).sort()).toEqual(fromGraphql.map(pod => pod.id).sort());
	const restById = byId(fromRest);
	for (const pod of fromGraphql) {
		const other = restById.get(pod.id)!;
		expect(listed(other), pod.id).toEqual(listed(pod));
	}

	const sample = [
		...fromGraphql.filter(pod => pod.desiredStatus === 'RUNNING').slice(0, 4),
		...fromGraphql.filter(pod => pod.desiredStatus === 'EXITED').slice(0, 2),
	];
	for (const {id} of sample) {
		const [one, other] = await Promise.all([graphql.pod(id), rest.pod(id)]);
		expect(detailed(other!), id).toEqual(detailed(one!));
	}
});

test('endpoints: the same records (v2 names data centers where GraphQL names their countries)', async () => {
	const [fromGraphql, fromRest] = await Promise.all([graphql.endpoints(), rest.endpoints()]);
	expect(fromRest.map(endpoint => endpoint.id)).toEqual(fromGraphql.map(endpoint => endpoint.id));
	const restById = byId(fromRest);
	for (const endpoint of fromGraphql) {
		const other = restById.get(endpoint.id)!;
		const {id, name, gpuIds, gpuCount, networkVolumeId, scalerType, scalerValue, workersMin, workersMax, flashBootType} = endpoint;
		expect(other).toMatchObject({id, name, gpuIds, gpuCount, networkVolumeId: networkVolumeId ?? null, scalerType, scalerValue, workersMin, workersMax});
		expect(other.flashBootType === 'OFF' ? 'OFF' : 'FLASHBOOT').toBe(flashBootType === 'FLASHBOOT' ? 'FLASHBOOT' : 'OFF');
		// A request-count scaler has no idle timeout in v2.
		expect(other.idleTimeout).toBe(scalerType === 'REQUEST_COUNT' ? null : endpoint.idleTimeout);
		const countries = new Set(
			(other.locations ?? '')
				.split(',')
				.filter(Boolean)
				.map(center => dataCenters.find(known => known.id === center)!.countryCode),
		);
		expect([...countries].sort().join(','), endpoint.id).toBe((endpoint.locations ?? '').split(',').filter(Boolean).sort().join(','));
	}
});

test('GPU types: the same names, memory, counts and prices', async () => {
	const [fromGraphql, fromRest] = await Promise.all([graphql.gpuTypes({secureCloud: true}), rest.gpuTypes({secureCloud: true})]);
	const restById = byId(fromRest);
	expect(fromRest.length).toBeGreaterThan(10);
	for (const type of fromGraphql.filter(candidate => restById.has(candidate.id))) {
		const {id, displayName, manufacturer, memoryInGb, maxGpuCount, securePrice, communityPrice} = type;
		expect(restById.get(id)).toMatchObject({
			id,
			displayName,
			manufacturer,
			memoryInGb,
			maxGpuCount,
			securePrice: securePrice ?? null,
			communityPrice: communityPrice ?? null,
		});
	}
});

import {afterEach, describe, expect, test} from 'vitest';
import {closeRestSims, startRestSim} from './rest-client.js';

afterEach(closeRestSims);

describe('v2 catalog', () => {
	test('GPU types with prices; availability only with include=AVAILABILITY and a product (400 without, and product alone 400)', async () => {
		const sim = await startRestSim();
		const plain = (await sim.rest('GET', '/v2/catalog/gpus')).body.gpus;
		expect(plain).toHaveLength(20);
		expect(plain.every((gpu: object) => !('availability' in gpu))).toBe(true);
		expect((await sim.rest('GET', '/v2/catalog/gpus?include=AVAILABILITY')).status).toBe(400);
		expect((await sim.rest('GET', '/v2/catalog/gpus?product=POD')).status).toBe(400);
		expect((await sim.rest('GET', '/v2/catalog/gpus?count=2')).status).toBe(400);
		expect((await sim.rest('GET', '/v2/catalog/gpus?include=AVAILABILITY&product=POD&cudaVersions=12.8&minCudaVersion=12')).status).toBe(400);
		expect((await sim.rest('GET', '/v2/catalog/gpus?include=AVAILABILITY&product=POD&cudaVersions=12')).status).toBe(422);
		const pod = (await sim.rest('GET', '/v2/catalog/gpus?include=AVAILABILITY&product=POD')).body.gpus;
		for (const gpu of pod) {
			expect(['NONE', 'LOW', 'MEDIUM', 'HIGH']).toContain(gpu.availability);
			for (const center of gpu.dataCenters ?? []) {
				expect(center.name).toMatch(/^(US|EU|EUR) /);
			}
		}

		const amd = pod.find((gpu: {manufacturer: string}) => gpu.manufacturer === 'AMD');
		expect(amd.cudaVersions).toBeUndefined();
		const serverless = (await sim.rest('GET', '/v2/catalog/gpus?include=AVAILABILITY&product=SERVERLESS')).body.gpus;
		for (const gpu of serverless.filter((gpu: {pool: string | null}) => gpu.pool === null)) {
			expect(gpu).toMatchObject({availability: 'NONE'});
			expect(gpu.dataCenters).toBeUndefined();
		}
	});

	test('query arrays are comma-joined and a repeated key is refused; a country filter scopes the data centers', async () => {
		const sim = await startRestSim();
		expect((await sim.rest('GET', '/v2/catalog/gpus?include=AVAILABILITY&product=POD,SERVERLESS')).status).toBe(200);
		const repeated = await sim.rest('GET', '/v2/catalog/gpus?include=AVAILABILITY&product=POD&product=SERVERLESS');
		expect(repeated.status).toBe(400);
		expect(repeated.body.detail).toContain('product');
		const french = (await sim.rest('GET', '/v2/catalog/gpus?include=AVAILABILITY&product=POD&countryCodes=FR')).body.gpus;
		for (const gpu of french) {
			expect((gpu.dataCenters ?? []).every((center: {id: string}) => center.id === 'EU-FR-1')).toBe(true);
		}

		expect(french.length).toBeLessThan(20);
	});

	test('one GPU type by its URL-encoded id; an unknown one is 404', async () => {
		const sim = await startRestSim();
		const one = await sim.rest('GET', '/v2/catalog/gpus/NVIDIA%20GeForce%20RTX%204090?include=AVAILABILITY&product=POD');
		expect(one.body).toMatchObject({id: 'NVIDIA GeForce RTX 4090', name: 'RTX 4090', pool: 'ADA_24', manufacturer: 'NVIDIA'});
		expect(one.body.availability).toBeDefined();
		expect((await sim.rest('GET', '/v2/catalog/gpus/NVIDIA%20Nothing')).status).toBe(404);
	});

	test('data centers, filtered by region, with GPU availability on request; an unknown one is 404', async () => {
		const sim = await startRestSim();
		const all = (await sim.rest('GET', '/v2/catalog/datacenters')).body.dataCenters;
		expect(all).toHaveLength(8);
		const american = (await sim.rest('GET', '/v2/catalog/datacenters?regions=NORTH_AMERICA&include=GPU_AVAILABILITY')).body.dataCenters;
		expect(american.map((center: {id: string}) => center.id)).toEqual(['US-TX-3', 'US-GA-1', 'US-CA-2']);
		expect(american[0].gpuAvailability.length).toBeGreaterThan(0);
		expect((await sim.rest('GET', '/v2/catalog/datacenters/US-TX-3')).body.name).toBe('US Texas 3');
		expect((await sim.rest('GET', '/v2/catalog/datacenters/XX-1')).status).toBe(404);
	});
});

import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {ApiError} from '../../../source/api/errors.js';
import {Pools} from '../../../source/api/pools.js';
import {createRestApi} from '../../../source/api/rest/rest-api.js';
import type {ManagementApi} from '../../../source/model/management-api.js';
import {spendCategories} from '../../../source/model/spend.js';
import {closeRestSims, startRestSim, type RestSim} from '../../sim/rest/rest-client.js';

const apiKey = 'rpa_RESTSPEND0123456789';
const devKey = 'rpa_RESTSPENDDEV0123456';
let sim: RestSim;
let pools: Pools;
let api: ManagementApi;

beforeAll(async () => {
	sim = await startRestSim({apiKey, devApiKey: devKey, podCount: 12, restQuota: {minute: 10_000, hour: 100_000, day: 1_000_000}});
	pools = new Pools();
	api = createRestApi({baseUrl: sim.url, apiKey, pools});
});

afterAll(async () => {
	await pools.close();
	await closeRestSims();
});

describe('REST v2 adapter: bills as podtop’s spend records', () => {
	test('the account’s spend per bucket, by category, its window and totals as the service resolved them', async () => {
		const spend = await api.spend!({bucketSize: 'day', lastN: 7});
		expect(spend.window).toEqual({from: Date.UTC(2026, 10, 25), to: Date.UTC(2026, 11, 2), bucketSize: 'day'});
		expect(spend.buckets).toHaveLength(7);
		expect(spend.buckets[0]).toMatchObject({from: Date.UTC(2026, 10, 25), to: Date.UTC(2026, 10, 26)});
		expect(Object.keys(spend.buckets[0]!.byCategory).sort()).toEqual([...spendCategories].sort());
		expect(spend.total).toBeGreaterThan(0);
		expect(spend.total).toBeCloseTo(
			spend.buckets.reduce((sum, bucket) => sum + bucket.total, 0),
			4,
		);
		expect(spend.byCategory.podGpu).toBeGreaterThan(0);
		expect(spend.byCategory.publicEndpoint).toBe(0);
	});

	test('a window by times, per pod: the same dollars as the account’s pod categories', async () => {
		const query = {bucketSize: 'hour', from: Date.UTC(2026, 10, 30, 6), to: Date.UTC(2026, 10, 30, 9)} as const;
		const pods = await api.resourceSpend!('pod', query);
		const account = await api.spend!(query);
		expect(pods.window).toEqual({...query});
		expect(new Set(pods.records.map(record => record.resourceId)).size).toBeGreaterThan(3);
		const podCategories = account.byCategory.podGpu + account.byCategory.podCpu + account.byCategory.podDisk;
		expect(pods.total).toBeCloseTo(podCategories, 4);
		expect(pods.records[0]!.byCategory).toHaveProperty('podGpu');
		const endpoints = await api.resourceSpend!('endpoint', {bucketSize: 'day', lastN: 1});
		expect(endpoints.records.every(record => record.resourceId !== '' && record.byCategory.serverlessFee !== undefined)).toBe(true);
	});

	test('a key without billing permission is refused as forbidden, without the key in what is said', async () => {
		const dev = createRestApi({baseUrl: sim.url, apiKey: devKey, pools});
		const error = await dev.spend!({bucketSize: 'day', lastN: 1}).catch((error_: unknown) => error_);
		expect(error).toBeInstanceOf(ApiError);
		expect((error as ApiError).kind).toBe('forbidden');
		expect((error as ApiError).message).not.toContain(devKey);
		await expect(api.spend!({bucketSize: 'day', from: Date.UTC(2026, 11, 2), to: Date.UTC(2026, 11, 1)})).rejects.toMatchObject({kind: 'invalid'});
	});
});

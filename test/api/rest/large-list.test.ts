import {afterAll, expect, test} from 'vitest';
import {Pools} from '../../../source/api/pools.js';
import {createRestApi} from '../../../source/api/rest/rest-api.js';
import {closeRestSims, startRestSim} from '../../sim/rest/rest-client.js';

const pools = new Pools();

afterAll(async () => {
	await pools.close();
	await closeRestSims();
});

test('10,000 pods: one list request, read as a stream into 10,000 records in the order sent', async () => {
	const sim = await startRestSim({podCount: 10_000});
	const statuses: number[] = [];
	const api = createRestApi({baseUrl: sim.url, apiKey: sim.apiKey, pools, onAnswer: answer => statuses.push(answer.status)});
	const pods = await api.pods();
	expect(pods).toHaveLength(10_000);
	expect(new Set(pods.map(pod => pod.id)).size).toBe(10_000);
	expect(pods.every(pod => typeof pod.desiredStatus === 'string' && Array.isArray(pod.actions))).toBe(true);
	// The list and one catalog read for the GPU types' names.
	expect(statuses).toEqual([200, 200]);
}, 120_000);

import {afterEach, describe, expect, test} from 'vitest';
import {createGraphqlApi} from '../../source/api/graphql-api.js';
import {createManagementApi} from '../../source/api/management-choice.js';
import {Pools} from '../../source/api/pools.js';
import {createRestApi} from '../../source/api/rest/rest-api.js';
import {balanceTexts, formatLasting} from '../../source/format/balance-text.js';
import {startTestSim, type TestSim} from '../helpers/sim-client.js';

let sim: TestSim | undefined;
let pools: Pools | undefined;
afterEach(async () => {
	await pools?.close();
	await sim?.close();
});

async function managementFor(graphql: 'on' | 'retired') {
	sim = await startTestSim({graphql, graphqlRate: 1000, podCount: 12});
	pools = new Pools();
	return createManagementApi({
		choice: 'auto',
		v2: createRestApi({baseUrl: sim.url, apiKey: sim.apiKey, pools}),
		graphql: createGraphqlApi({url: `${sim.url}/graphql`, apiKey: sim.apiKey, pools}),
	});
}

describe('the balance and burn', () => {
	test('read from GraphQL’s myself while it answers: the balance, and the spend per hour of what runs', async () => {
		const api = await managementFor('on');
		const read = await api.balance!();
		expect(read).not.toBe('not-published');
		const {balance, spendPerHour} = read as Exclude<typeof read, 'not-published'>;
		expect(balance).toBeGreaterThan(0);
		expect(balance).toBeLessThanOrEqual(1234.56);
		expect(spendPerHour).toBeGreaterThan(1);
	});

	test('once GraphQL is gone (410), not published: never a balance of $0', async () => {
		const api = await managementFor('retired');
		expect(await api.balance!()).toBe('not-published');
		const texts = balanceTexts('not-published', '·', 80);
		expect(texts.every(text => !text.includes('$'))).toBe(true);
		expect(texts[0]).toBe('balance: not published by the API');
	});

	test('the header’s words, widest first', () => {
		expect(balanceTexts({balance: 212.4, spendPerHour: 2.48}, '·', 80)).toEqual([
			'$212.40 · 3d 13h at $2.48/h · 3% of $80/h',
			'$212.40 · 3d 13h at $2.48/h',
			'$212 3d13h',
		]);
		expect(formatLasting(10, 4)).toBe('2h 30m');
		expect(formatLasting(1, 4)).toBe('15m');
		expect(formatLasting(10, 0)).toBe('–');
		expect(balanceTexts(undefined, '·', 80)).toEqual([]);
	});
});

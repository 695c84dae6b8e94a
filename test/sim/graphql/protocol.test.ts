import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {startTestSim, type TestSim} from '../../helpers/sim-client.js';
import {gql, gqlData} from '../../helpers/graphql-client.js';

let sim: TestSim;

beforeAll(async () => {
	sim = await startTestSim({graphqlRate: 1000});
});

afterAll(async () => sim.close());

describe('GraphQL over HTTP', () => {
	test('takes the key as Authorization: Bearer or as ?api_key=', async () => {
		for (const auth of ['bearer', 'query'] as const) {
			const reply = await gql(sim, '{ myself { id } }', {auth});
			expect(reply.status, auth).toBe(200);
			expect(reply.body.data.myself.id).toEqual(expect.any(String));
		}
	});

	test('a bad or missing key is HTTP 401', async () => {
		expect((await gql(sim, '{ myself { id } }', {key: 'wrong'})).status).toBe(401);
		expect((await gql(sim, '{ myself { id } }', {key: 'wrong', auth: 'query'})).status).toBe(401);
		expect((await gql(sim, '{ myself { id } }', {auth: 'none'})).status).toBe(401);
	});

	test('a document that does not parse or validate is HTTP 400 with errors', async () => {
		const syntax = await gql(sim, '{ myself { id }');
		expect(syntax.status).toBe(400);
		expect(syntax.body.errors[0].message).toMatch(/Syntax Error/);
		const unknownField = await gql(sim, '{ myself { id favouriteColour } }');
		expect(unknownField.status).toBe(400);
		expect(unknownField.body.errors[0].message).toMatch(/favouriteColour/);
		const wrongType = await gql(sim, '{ pod(input: {podId: 42}) { id } }');
		expect(wrongType.status).toBe(400);
		const badVariable = await gql(sim, 'query P($id: String!) { pod(input: {podId: $id}) { id } }', {variables: {}});
		expect(badVariable.status).toBe(400);
		expect(badVariable.body.errors[0].message).toMatch(/\$id/);
	});

	test('a body without a query is 400; GET is 405', async () => {
		const response = await fetch(`${sim.url}/graphql`, {
			method: 'POST',
			headers: {authorization: `Bearer ${sim.apiKey}`, 'content-type': 'application/json'},
			body: '{"variables": {}}',
		});
		expect(response.status).toBe(400);
		const get = await fetch(`${sim.url}/graphql?query=%7Bmyself%7Bid%7D%7D`, {headers: {authorization: `Bearer ${sim.apiKey}`}});
		expect(get.status).toBe(405);
	});

	test('a missing object is null with HTTP 200', async () => {
		const reply = await gql(sim, '{ pod(input: {podId: "nope"}) { id name } }');
		expect(reply.status).toBe(200);
		expect(reply.body).toEqual({data: {pod: null}});
	});

	test('a resolver error is HTTP 200 with errors[].message, path and extensions.code, and null data', async () => {
		const reply = await gql(sim, 'mutation { podStop(input: {podId: "nope"}) { id } }');
		expect(reply.status).toBe(200);
		expect(reply.body.data).toEqual({podStop: null});
		expect(reply.body.errors[0]).toMatchObject({message: expect.stringMatching(/nope/), path: ['podStop'], extensions: {code: 'NOT_FOUND'}});
	});

	test('inline literals (runpod-python) and variables with named operations (runpodctl) give the same answer', async () => {
		const {myself} = await gqlData(sim, '{ myself { pods { id } } }');
		const podId = myself.pods[0].id;
		const inline = await gqlData(sim, `query { pod(input: {podId: "${podId}"}) { id name gpuCount } }`);
		const reply = await gql(sim, 'query One($podId: String!) { pod(input: {podId: $podId}) { id name gpuCount } } query Other { myself { id } }', {
			variables: {podId},
			operationName: 'One',
		});
		expect(reply.status).toBe(200);
		expect(reply.body.data).toEqual(inline);
	});

	test('several operations without operationName is 400', async () => {
		expect((await gql(sim, 'query A { myself { id } } query B { myself { id } }')).status).toBe(400);
	});

	test('aliases, fragments and __typename work; only the selected fields come back', async () => {
		const data = await gqlData(
			sim,
			`
			fragment Price on GpuType { securePrice communityPrice }
			query { cheap: gpuTypes(input: {id: "NVIDIA RTX A4000"}) { __typename id ...Price } me: myself { __typename id } }
		`,
		);
		expect(data.cheap).toEqual([{__typename: 'GpuType', id: 'NVIDIA RTX A4000', securePrice: 0.32, communityPrice: 0.17}]);
		expect(data.me).toEqual({__typename: 'User', id: expect.any(String)});
	});

	test('the request rate per key is limited (429 with Retry-After above it)', async () => {
		const limited = await startTestSim({graphqlRate: 5});
		const statuses: number[] = [];
		for (let index = 0; index < 7; index++) {
			const reply = await gql(limited, '{ myself { id } }');
			statuses.push(reply.status);
			if (reply.status === 429) {
				expect(reply.headers['retry-after']).toBe('1');
			}
		}

		expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
		expect(statuses.slice(5)).toEqual([429, 429]);
		const stats = (await limited.call('GET', '/__sim/stats')).body.endpoints.graphql;
		expect(stats.request).toMatchObject({requests: 7, rateLimited: 2});
		await limited.close();
	});
});

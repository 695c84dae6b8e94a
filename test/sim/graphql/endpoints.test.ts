import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {startTestSim, waitFor, waitForStatus, type TestSim} from '../../helpers/sim-client.js';
import {gql, gqlData} from '../../helpers/graphql-client.js';

let sim: TestSim;

beforeAll(async () => {
	sim = await startTestSim({graphqlRate: 1000, speed: 20});
});

afterAll(async () => sim.close());

const endpointFields =
	'id name templateId gpuIds gpuCount idleTimeout locations networkVolumeId scalerType scalerValue workersMin workersMax workersStandby flashBootType env { key value } version type userId aiKey createdAt allowedCudaVersions networkVolume { id dataCenterId }';

describe('endpoints over GraphQL', () => {
	test("myself lists the account's endpoints (not the public models), serverlessDiscount and pods", async () => {
		const {myself} = await gqlData(sim, `{ myself { endpoints { ${endpointFields} } serverlessDiscount { discountFactor type expirationDate } pods { id } } }`);
		expect(myself.endpoints).toHaveLength(9);
		expect(myself.endpoints.map((endpoint: {id: string}) => endpoint.id)).not.toContain('black-forest-labs-flux-1-dev');
		expect(myself.serverlessDiscount).toEqual({discountFactor: expect.any(Number), type: expect.any(String), expirationDate: expect.any(String)});
		expect(myself.pods).toHaveLength(12);
		const llm = myself.endpoints.find((endpoint: {name: string}) => endpoint.name === 'llama-3-8b-instruct-vllm');
		expect(llm).toMatchObject({
			gpuIds: 'ADA_24,AMPERE_24',
			locations: 'US',
			scalerType: 'QUEUE_DELAY',
			flashBootType: 'FLASHBOOT',
			env: expect.arrayContaining([{key: 'MAX_MODEL_LEN', value: '8192'}]),
		});
	});

	test('saveEndpoint without id creates an endpoint the job API serves at once (an echo worker)', async () => {
		const {saveEndpoint} = await gqlData(
			sim,
			`mutation { saveEndpoint(input: { gpuIds: "AMPERE_16", idleTimeout: 5, locations: "US", name: "Generated Endpoint -fb", networkVolumeId: "", scalerType: "QUEUE_DELAY", scalerValue: 4, templateId: "xkhgg72fuo", workersMax: 3, workersMin: 0 }) { ${endpointFields} } }`,
		);
		expect(saveEndpoint).toMatchObject({
			id: expect.stringMatching(/^[a-z\d]{14}$/),
			name: 'Generated Endpoint -fb',
			flashBootType: 'FLASHBOOT',
			workersMin: 0,
			workersMax: 3,
			networkVolumeId: null,
			networkVolume: null,
			version: 0,
		});
		const reply = await sim.call('POST', `/v2/${saveEndpoint.id}/runsync`, {body: {input: {hello: 'world', delay_ms: 10}}});
		expect(reply.body).toMatchObject({status: 'COMPLETED', output: {hello: 'world'}});
		const {myself} = await gqlData(sim, '{ myself { endpoints { id } } }');
		expect(myself.endpoints.map((endpoint: {id: string}) => endpoint.id)).toContain(saveEndpoint.id);
	});

	test('saveEndpoint with id replaces the whole record: omitted optional fields go back to defaults', async () => {
		const create = await gqlData(sim, 'mutation Create($input: EndpointInput!) { saveEndpoint(input: $input) { id version } }', {
			input: {
				name: 'replace-me',
				templateId: 't1',
				gpuIds: 'ADA_24',
				locations: 'FR,RO',
				idleTimeout: 60,
				scalerType: 'REQUEST_COUNT',
				scalerValue: 2,
				workersMin: 0,
				workersMax: 5,
				env: [{key: 'A', value: '1'}],
				flashBootType: 'FLASHBOOT',
			},
		});
		const {id} = create.saveEndpoint;
		const {saveEndpoint} = await gqlData(sim, `mutation Save($input: EndpointInput!) { saveEndpoint(input: $input) { ${endpointFields} } }`, {
			input: {id, name: 'replaced', templateId: 't2', gpuIds: 'AMPERE_80', workersMax: 2},
		});
		expect(saveEndpoint).toMatchObject({
			id,
			name: 'replaced',
			templateId: 't2',
			gpuIds: 'AMPERE_80',
			locations: '',
			idleTimeout: 5,
			scalerType: 'QUEUE_DELAY',
			scalerValue: 4,
			workersMin: 0,
			workersMax: 2,
			env: [],
			flashBootType: 'OFF',
			version: 1,
		});
	});

	test.each([
		[{templateId: 't', gpuIds: 'AMPERE_16'}, /name is required/],
		[{name: 'x', gpuIds: 'AMPERE_16'}, /templateId is required/],
		[{name: 'x', templateId: 't', gpuIds: 'VOODOO_2'}, /Unknown GPU pool "VOODOO_2"/],
		[{name: 'x', templateId: 't'}, /gpuIds is required/],
		[{name: 'x', templateId: 't', gpuIds: 'AMPERE_16', locations: 'US,MARS'}, /Unknown location "MARS"/],
		[{name: 'x', templateId: 't', gpuIds: 'AMPERE_16', workersMin: 4, workersMax: 2}, /workersMin \(4\) cannot be greater than workersMax \(2\)/],
		[{name: 'x', templateId: 't', gpuIds: 'AMPERE_16', scalerType: 'VIBES'}, /scalerType/],
		[{id: 'doesnotexist00', name: 'x', templateId: 't', gpuIds: 'AMPERE_16'}, /not found/],
	])('saveEndpoint rejects %j', async (input, message) => {
		const reply = await gql(sim, 'mutation ($input: EndpointInput!) { saveEndpoint(input: $input) { id } }', {variables: {input}});
		expect(reply.status).toBe(200);
		expect(reply.body.data).toEqual({saveEndpoint: null});
		expect(reply.body.errors[0].message).toMatch(message);
		expect(reply.body.errors[0].extensions.code).toEqual(expect.any(String));
	});

	test('the job API and GraphQL agree: create, call, scale, delete', async () => {
		const {saveEndpoint: created} = await gqlData(
			sim,
			'mutation { saveEndpoint(input: {name: "agree", templateId: "t", gpuIds: "ADA_24", workersMin: 0, workersMax: 2, idleTimeout: 5}) { id } }',
		);
		const {id} = created;
		const job = await sim.run(id, {delay_ms: 100});
		await waitForStatus(sim, id, job, 'COMPLETED');

		await gqlData(
			sim,
			`mutation { saveEndpoint(input: {id: "${id}", name: "agree", templateId: "t", gpuIds: "ADA_24", workersMin: 2, workersMax: 2}) { id } }`,
		);
		await waitFor(async () => (await sim.health(id)).workers.idle === 2, 5000);

		const refused = await gql(sim, `mutation { deleteEndpoint(id: "${id}") }`);
		expect(refused.body.data).toEqual({deleteEndpoint: null});
		expect(refused.body.errors[0].message).toMatch(/workersMin and workersMax to 0/);
		expect((await sim.health(id)).workers.idle).toBe(2);

		await gqlData(
			sim,
			`mutation { saveEndpoint(input: {id: "${id}", name: "agree", templateId: "t", gpuIds: "ADA_24", workersMin: 0, workersMax: 0}) { id } }`,
		);
		await waitFor(async () => {
			const {workers} = await sim.health(id);
			return workers.idle + workers.running + workers.initializing === 0;
		}, 5000);
		const deleted = await gql(sim, `mutation { deleteEndpoint(id: "${id}") }`);
		expect(deleted.body).toEqual({data: {deleteEndpoint: null}});
		expect((await sim.call('GET', `/v2/${id}/health`)).status).toBe(404);
		expect((await sim.call('POST', `/v2/${id}/run`, {body: {input: {}}})).status).toBe(404);
		const {myself} = await gqlData(sim, '{ myself { endpoints { id } } }');
		expect(myself.endpoints.map((endpoint: {id: string}) => endpoint.id)).not.toContain(id);
	});

	test('lowering workersMax retires idle workers and running ones after their job', async () => {
		const {
			saveEndpoint: {id},
		} = await gqlData(sim, 'mutation { saveEndpoint(input: {name: "shrink -fb", templateId: "t", gpuIds: "ADA_24", workersMin: 3, workersMax: 3}) { id } }');
		await waitFor(async () => (await sim.health(id)).workers.idle === 3, 5000);
		const job = await sim.run(id, {delay_ms: 4000});
		await waitForStatus(sim, id, job, 'IN_PROGRESS');
		await gqlData(
			sim,
			`mutation { saveEndpoint(input: {id: "${id}", name: "shrink -fb", templateId: "t", gpuIds: "ADA_24", workersMin: 0, workersMax: 1}) { id } }`,
		);
		const during = await sim.health(id);
		expect(during.workers).toMatchObject({idle: 0, running: 1});
		await waitForStatus(sim, id, job, 'COMPLETED');
		const after = await sim.health(id);
		expect(after.workers.idle + after.workers.running).toBeLessThanOrEqual(1);
	});

	test('deleting an unknown endpoint is an error', async () => {
		const reply = await gql(sim, 'mutation { deleteEndpoint(id: "nope") }');
		expect(reply.body.errors[0]).toMatchObject({message: expect.stringMatching(/not found/), extensions: {code: 'NOT_FOUND'}});
	});
});

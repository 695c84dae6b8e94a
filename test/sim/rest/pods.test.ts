import {afterEach, describe, expect, test} from 'vitest';
import {waitFor} from '../../helpers/sim-client.js';
import {closeRestSims, startRestSim} from './rest-client.js';

afterEach(closeRestSims);

const deploy = {name: 'trainer', image: 'runpod/pytorch:2.4', gpu: {id: 'NVIDIA GeForce RTX 4090', count: 1}, ports: ['8888/http', '22/tcp'], env: {A: '1'}};

describe('v2 pods', () => {
	test('the list is wrapped, holds the fleet GraphQL shows, with runtime only while RUNNING and cost 0 when EXITED', async () => {
		const sim = await startRestSim();
		const {body, status} = await sim.rest('GET', '/v2/pods');
		expect(status).toBe(200);
		const graphql = await sim.call('POST', '/graphql', {body: {query: '{ myself { pods { id desiredStatus } } }'}});
		expect(body.pods.map((pod: {id: string}) => pod.id).sort()).toEqual(graphql.body.data.myself.pods.map((pod: {id: string}) => pod.id).sort());
		for (const pod of body.pods) {
			expect(pod.runtime === null).toBe(pod.status !== 'RUNNING');
			if (pod.status === 'EXITED') {
				expect(pod.cost).toBe(0);
				expect(pod.actions).toEqual(['start', 'terminate']);
			}

			if (pod.status === 'RUNNING') {
				expect(pod.actions).toEqual(['stop', 'restart', 'terminate']);
				expect(pod.runtime.gpus).toHaveLength(pod.gpu?.count ?? 0);
			}
		}

		expect(body.pods.some((pod: {status: string}) => pod.status === 'EXITED')).toBe(true);
		expect((await sim.rest('GET', `/v2/pods/${body.pods[0].id}`)).body.id).toBe(body.pods[0].id);
		expect((await sim.rest('GET', '/v2/pods/nope')).status).toBe(404);
		expect((await sim.rest('GET', '/v2/pods?includeClusterPods=maybe')).status).toBe(422);
	});

	test('create: 201 PROVISIONING; gpu.count required (400); unknown fields 422 with errors; gpu and cpu together 400', async () => {
		const sim = await startRestSim();
		const made = await sim.rest('POST', '/v2/pods', {body: deploy});
		expect(made.status).toBe(201);
		expect(made.body).toMatchObject({name: 'trainer', status: 'PROVISIONING', actions: ['terminate'], runtime: null, env: {A: '1'}, gpu: {count: 1}});
		expect((await sim.rest('POST', '/v2/pods', {body: {...deploy, gpu: {id: 'NVIDIA L4'}}})).status).toBe(400);
		const unknown = await sim.rest('POST', '/v2/pods', {body: {...deploy, bogus: 1}});
		expect(unknown.status).toBe(422);
		expect(unknown.body.errors).toEqual(["$: additional properties 'bogus' not allowed"]);
		expect((await sim.rest('POST', '/v2/pods', {body: {...deploy, cpu: {id: 'cpu3c', vcpuCount: 2}}})).status).toBe(400);
		expect((await sim.rest('POST', '/v2/pods', {body: {name: 'x', gpu: {id: 'NVIDIA L4', count: 1}}})).status).toBe(422);
		expect((await sim.rest('POST', '/v2/pods', {raw: '{not json'})).status).toBe(400);
		const cpu = await sim.rest('POST', '/v2/pods', {body: {name: 'cpu box', image: 'alpine', cpu: {id: 'cpu3c', vcpuCount: 4}}});
		expect(cpu.body.cpu).toMatchObject({vcpuCount: 4});
		expect(cpu.body.gpu).toBeUndefined();
	});

	test('actions follow the status: stop → EXITED, stop again 409, start → STARTING, terminate 204 and gone', async () => {
		const sim = await startRestSim();
		// A pod whose GPU type has stock now, so starting it again cannot fail on capacity.
		const stock = await sim.call('POST', '/graphql', {body: {query: '{ gpuTypes { id lowestPrice(input: {gpuCount: 1}) { maxUnreservedGpuCount } } }'}});
		const free = new Map<string, number>(stock.body.data.gpuTypes.map((type: any) => [type.id, type.lowestPrice.maxUnreservedGpuCount]));
		const running = (await sim.rest('GET', '/v2/pods')).body.pods.find(
			(pod: any) => pod.status === 'RUNNING' && pod.gpu && (free.get(pod.gpu.id) ?? 0) >= pod.gpu.count + 1,
		);
		const stopped = await sim.rest('POST', `/v2/pods/${running.id}/action`, {body: {action: 'stop'}});
		expect(stopped.status).toBe(200);
		expect(stopped.body).toMatchObject({status: 'EXITED', cost: 0, runtime: null, actions: ['start', 'terminate']});
		const again = await sim.rest('POST', `/v2/pods/${running.id}/action`, {body: {action: 'stop'}});
		expect(again.status).toBe(409);
		expect(again.body.detail).toContain('EXITED');
		expect((await sim.rest('POST', `/v2/pods/${running.id}/action`, {body: {action: 'restart'}})).status).toBe(409);
		expect((await sim.rest('POST', `/v2/pods/${running.id}/action`, {body: {action: 'explode'}})).status).toBe(422);
		const started = await sim.rest('POST', `/v2/pods/${running.id}/action`, {body: {action: 'start'}});
		expect(started.body).toMatchObject({status: 'STARTING', actions: ['stop', 'terminate']});
		expect(started.body.cost).toBeGreaterThan(0);
		const gone = await sim.rest('POST', `/v2/pods/${running.id}/action`, {body: {action: 'terminate'}});
		expect(gone.status).toBe(204);
		expect((await sim.rest('GET', `/v2/pods/${running.id}`)).status).toBe(404);
		expect((await sim.rest('POST', `/v2/pods/${running.id}/action`, {body: {action: 'start'}})).status).toBe(404);
	});

	test('PATCH changes only what is sent; a locked pod cannot be stopped; DELETE is 204; PUT is 405', async () => {
		const sim = await startRestSim();
		const before = (await sim.rest('GET', '/v2/pods')).body.pods.find((pod: {status: string}) => pod.status === 'RUNNING');
		const renamed = await sim.rest('PATCH', `/v2/pods/${before.id}`, {body: {name: 'renamed', locked: true}});
		expect(renamed.body).toMatchObject({...before, name: 'renamed', locked: true, actions: ['terminate'], runtime: expect.anything()});
		expect((await sim.rest('POST', `/v2/pods/${before.id}/action`, {body: {action: 'stop'}})).status).toBe(409);
		expect((await sim.rest('PATCH', `/v2/pods/${before.id}`, {body: {bogus: true}})).status).toBe(422);
		expect((await sim.rest('DELETE', `/v2/pods/${before.id}`)).status).toBe(204);
		expect((await sim.rest('DELETE', `/v2/pods/${before.id}`)).status).toBe(404);
		const put = await sim.call('PUT', '/v2/pods');
		expect(put.status).toBe(405);
		expect(put.headers.allow).toBe('GET, POST');
		expect(put.headers['content-type']).toBe('application/problem+json');
	});

	test('a pod goes PROVISIONING → STARTING → RUNNING on the simulated clock, or ERROR for an image that cannot run', async () => {
		const sim = await startRestSim({speed: 500});
		const good = (await sim.rest('POST', '/v2/pods', {body: deploy})).body;
		const bad = (await sim.rest('POST', '/v2/pods', {body: {...deploy, name: 'bad', image: 'acme/broken:1'}})).body;
		const seen = new Set<string>();
		await waitFor(async () => {
			const pod = (await sim.rest('GET', `/v2/pods/${good.id}`)).body;
			seen.add(pod.status);
			return pod.status === 'RUNNING' && pod.runtime.uptime >= 0;
		});
		expect([...seen].every(status => ['PROVISIONING', 'STARTING', 'RUNNING'].includes(status))).toBe(true);
		const broken = await waitFor(async () => {
			const pod = (await sim.rest('GET', `/v2/pods/${bad.id}`)).body;
			return pod.status === 'ERROR' && pod;
		});
		expect(broken).toMatchObject({runtime: null, actions: ['stop', 'restart', 'terminate']});
	});
});

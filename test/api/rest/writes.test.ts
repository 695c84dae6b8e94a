import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {Pools} from '../../../source/api/pools.js';
import {createRestApi, type RestAnswerSeen} from '../../../source/api/rest/rest-api.js';
import type {ManagementApi} from '../../../source/model/management-api.js';
import type {PodRecord} from '../../../source/model/pod.js';
import {caught as caughtError} from '../../helpers/caught.js';
import {closeRestSims, startRestSim, type RestSim} from '../../sim/rest/rest-client.js';

let sim: RestSim;
let pools: Pools;
let api: ManagementApi;
const seen: RestAnswerSeen[] = [];

beforeAll(async () => {
	sim = await startRestSim({apiKey: 'rpa_RESTWRITES0123456789', restQuota: {minute: 10_000, hour: 100_000, day: 1_000_000}});
	pools = new Pools();
	api = createRestApi({baseUrl: sim.url, apiKey: sim.apiKey, pools, onAnswer: answer => seen.push(answer)});
});

afterAll(async () => {
	await pools.close();
	await closeRestSims();
});

const caught = async (promise: Promise<unknown>) => caughtError(promise, sim.apiKey);
const wireEndpoint = async (id: string) => (await sim.rest('GET', `/v2/serverless/${id}`)).body;

describe('REST v2 adapter: writes', () => {
	test('saveEndpoint creates (flashboot as given, OFF when omitted); updateEndpoint sends only what changed; a save with an id sends the record; delete', async () => {
		const created = await api.saveEndpoint({
			name: 'rest-made',
			templateId: 'tpl-1',
			gpuIds: 'ADA_24,AMPERE_48',
			gpuCount: 2,
			workersMin: 0,
			workersMax: 2,
			idleTimeout: 7,
			locations: 'US-TX-3,EU-RO-1',
			flashBootType: 'PRIORITY_FLASHBOOT',
			executionTimeoutMs: 60_000,
			env: [{key: 'MODEL', value: 'llama'}],
		});
		expect(created).toMatchObject({
			name: 'rest-made',
			gpuIds: 'ADA_24,AMPERE_48',
			gpuCount: 2,
			workersMax: 2,
			idleTimeout: 7,
			locations: 'US-TX-3,EU-RO-1',
			flashBootType: 'PRIORITY_FLASHBOOT',
			scalerType: 'QUEUE_DELAY',
			scalerValue: 4,
		});
		const wire = await wireEndpoint(created.id);
		expect(wire).toMatchObject({timeout: 60_000, env: {MODEL: 'llama'}});
		expect((await api.saveEndpoint({name: 'plain', templateId: 'tpl-1', gpuIds: 'ADA_24'})).flashBootType).toBe('OFF');

		// Someone else changes the timeout between podtop's read and its update: an update of the workers leaves it alone.
		await sim.rest('PATCH', `/v2/serverless/${created.id}`, {body: {timeout: 90_000}});
		const updated = await api.updateEndpoint!(created.id, {workersMax: 5});
		expect(updated).toMatchObject({...created, workersMax: 5});
		expect((await wireEndpoint(created.id)).timeout).toBe(90_000);
		// The scaler's value alone keeps its type (read first: v2 takes the scaler whole).
		expect(await api.updateEndpoint!(created.id, {scalerValue: 9})).toMatchObject({scalerType: 'QUEUE_DELAY', scalerValue: 9, workersMax: 5});
		expect(await api.updateEndpoint!(created.id, {scalerType: 'REQUEST_COUNT', scalerValue: 3})).toMatchObject({scalerType: 'REQUEST_COUNT', scalerValue: 3});

		const saved = await api.saveEndpoint({...(await api.endpointForEdit(created.id))!, name: 'renamed', workersMax: 0});
		expect(saved).toMatchObject({id: created.id, name: 'renamed', workersMax: 0, gpuIds: 'ADA_24,AMPERE_48'});
		await api.deleteEndpoint(created.id);
		expect(await api.endpointForEdit(created.id)).toBeUndefined();
	});

	test('deploy (201), stop, start, restart, terminate (204): the pod after each, its status as v2 says', async () => {
		// A stopped pod resumes only if its host still has free GPUs (400 otherwise, as the service says): the first that can.
		let started: PodRecord | undefined;
		for (const running of (await api.pods()).filter(candidate => candidate.desiredStatus === 'RUNNING' && candidate.actions?.includes('stop'))) {
			const stopped = await api.stop(running.id);
			expect(stopped).toMatchObject({id: running.id, desiredStatus: 'EXITED', runtime: null, actions: ['start', 'terminate']});
			// v2 says cost 0 once stopped; the record keeps what it would run at (its type's list price), never $0.
			expect(stopped.costPerHr).toBeGreaterThan(0);
			started = await api.resume(running.id).catch((error: unknown) => {
				expect(error).toMatchObject({kind: 'invalid', status: 400, message: expect.stringMatching(/free GPUs/)});
				return undefined;
			});
			if (started) {
				break;
			}
		}

		expect(started).toMatchObject({desiredStatus: 'STARTING'});
		expect(started!.costPerHr).toBeGreaterThan(0);
		const other = (await api.pods()).find(candidate => candidate.desiredStatus === 'RUNNING' && candidate.actions?.includes('restart'))!;
		expect((await api.restart!(other.id)).desiredStatus).toBe('STARTING');

		const types = await api.gpuTypes({secureCloud: true});
		const open = types.find(type => type.lowestPrice?.stockStatus === 'High' || type.lowestPrice?.stockStatus === 'Medium')!;
		const pod = await api.deployOnDemand({
			name: 'rest-pod',
			gpuTypeId: open.id,
			gpuCount: 1,
			imageName: 'runpod/pytorch',
			cloudType: 'SECURE',
			volumeInGb: 20,
			ports: '8888/http,22/tcp',
			env: [{key: 'A', value: 'b'}],
		});
		expect(pod).toMatchObject({name: 'rest-pod', desiredStatus: 'PROVISIONING', gpuCount: 1, cloudType: 'SECURE', volumeInGb: 20, env: ['A=b']});
		expect(pod.machine?.gpuDisplayName).toBe(open.displayName);
		expect(pod.actions).toContain('terminate');
		await api.terminate(pod.id);
		expect(await api.pod(pod.id)).toBeNull();
	});

	test('spot: a spot deploy and a bid resume are refused before anything is sent (v2 has no spot pods); a CPU pod too', async () => {
		const before = seen.length;
		const spot = await caught(api.rentInterruptable({gpuTypeId: 'NVIDIA L4', imageName: 'x', bidPerGpu: 0.2}));
		expect(spot).toMatchObject({kind: 'invalid', message: expect.stringMatching(/no spot/)});
		expect((await caught(api.bidResume('any', 0.2))).message).toMatch(/no spot/);
		expect((await caught(api.deployOnDemand({gpuTypeId: 'NVIDIA L4', imageName: 'x', gpuCount: 0}))).message).toMatch(/CPU pod/);
		expect(seen.length).toBe(before);
	});
});

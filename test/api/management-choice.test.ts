import {describe, expect, test} from 'vitest';
import {ApiError} from '../../source/api/errors.js';
import {createManagementApi} from '../../source/api/management-choice.js';
import type {ManagementApi} from '../../source/model/management-api.js';

type Calls = string[];

/** An adapter that records its calls and answers each list with one record, or fails as told. */
function fakeApi(name: string, calls: Calls, fail: (method: string) => ApiError | undefined = () => undefined): ManagementApi {
	const answer = async (method: string, value: unknown) => {
		calls.push(`${name}.${method}`);
		const error = fail(method);
		if (error) {
			throw error;
		}

		return value;
	};

	return {
		endpoints: async () => answer('endpoints', [{id: `${name}-e`, name: 'e'}]) as never,
		endpointsAndDiscount: async () => answer('endpointsAndDiscount', {endpoints: [{id: `${name}-e`, name: 'e'}], discount: {discountFactor: 0.8}}) as never,
		endpointForEdit: async () => answer('endpointForEdit', undefined) as never,
		pods: async () => answer('pods', [{id: `${name}-p`}]) as never,
		podSummaries: async () => answer('podSummaries', []) as never,
		pod: async () => answer('pod', null) as never,
		podsById: async () => answer('podsById', []) as never,
		gpuTypes: async () => answer('gpuTypes', []) as never,
		saveEndpoint: async () => answer('saveEndpoint', {id: 'e', name: 'e'}) as never,
		deleteEndpoint: async () => answer('deleteEndpoint', undefined) as never,
		deployOnDemand: async () => answer('deployOnDemand', {id: 'p'}) as never,
		rentInterruptable: async () => answer('rentInterruptable', {id: 'p'}) as never,
		resume: async () => answer('resume', {id: 'p'}) as never,
		bidResume: async () => answer('bidResume', {id: 'p'}) as never,
		stop: async () => answer('stop', {id: 'p'}) as never,
		terminate: async () => answer('terminate', undefined) as never,
	};
}

const missing = () => new ApiError('not-found', 'pods: HTTP 404', {status: 404});
const gone = () => new ApiError('invalid', 'GraphQL: HTTP 410', {status: 410});

describe('the management API in use', () => {
	test('auto speaks v2 when the service has it, and never asks GraphQL for what v2 gives', async () => {
		const calls: Calls = [];
		const api = createManagementApi({choice: 'auto', v2: fakeApi('v2', calls), graphql: fakeApi('graphql', calls)});
		expect((await api.pods())[0]?.id).toBe('v2-p');
		await api.stop('p');
		expect(calls).toEqual(['v2.pods', 'v2.stop']);
		expect(api.inUse()).toBe('v2');
	});

	test('auto moves to GraphQL for the session when a v2 list answers 404, and says so once', async () => {
		const calls: Calls = [];
		const notices: string[] = [];
		const api = createManagementApi({
			choice: 'auto',
			v2: fakeApi('v2', calls, () => missing()),
			graphql: fakeApi('graphql', calls),
			notice: line => notices.push(line),
		});
		expect((await api.pods())[0]?.id).toBe('graphql-p');
		expect((await api.endpoints())[0]?.id).toBe('graphql-e');
		await api.stop('p');
		expect(calls).toEqual(['v2.pods', 'graphql.pods', 'graphql.endpoints', 'graphql.stop']);
		expect(notices).toHaveLength(1);
		expect(notices[0]).toMatch(/no REST v2.*GraphQL/);
	});

	test('a 404 for one pod is that pod, not a missing API; and once v2 has answered, a later 404 is the caller’s', async () => {
		const calls: Calls = [];
		let failing = false;
		const api = createManagementApi({choice: 'auto', v2: fakeApi('v2', calls, () => (failing ? missing() : undefined)), graphql: fakeApi('graphql', calls)});
		failing = true;
		await expect(api.pod('p')).rejects.toThrow(/404/);
		failing = false;
		await api.pods();
		failing = true;
		await expect(api.pods()).rejects.toThrow(/404/);
		expect(calls.filter(call => call.startsWith('graphql'))).toEqual([]);
	});

	test('--management-api v2 never falls back nor asks GraphQL (no discount, spot refused by v2); graphql never asks v2', async () => {
		const v2Calls: Calls = [];
		const strict = createManagementApi({choice: 'v2', v2: fakeApi('v2', v2Calls, () => missing()), graphql: fakeApi('graphql', v2Calls)});
		await expect(strict.pods()).rejects.toThrow(/404/);
		await expect(strict.endpointsAndDiscount()).rejects.toThrow(/404/);
		await expect(strict.bidResume('p', 1)).rejects.toThrow(/404/);
		expect(v2Calls).toEqual(['v2.pods', 'v2.endpoints', 'v2.bidResume']);
		const graphqlCalls: Calls = [];
		const old = createManagementApi({choice: 'graphql', v2: fakeApi('v2', graphqlCalls), graphql: fakeApi('graphql', graphqlCalls)});
		expect((await old.endpointsAndDiscount()).discount).toEqual({discountFactor: 0.8});
		expect(graphqlCalls).toEqual(['graphql.endpointsAndDiscount']);
	});

	test('auto over v2: the discount comes from GraphQL at most every 10 minutes, and after a 410 is unknown, said once', async () => {
		const calls: Calls = [];
		const notices: string[] = [];
		let now = 0;
		let retired = false;
		const api = createManagementApi({
			choice: 'auto',
			v2: fakeApi('v2', calls),
			graphql: fakeApi('graphql', calls, () => (retired ? gone() : undefined)),
			notice: line => notices.push(line),
			now: () => now,
		});
		expect((await api.endpointsAndDiscount()).discount).toEqual({discountFactor: 0.8});
		now += 60_000;
		expect((await api.endpointsAndDiscount()).endpoints[0]?.id).toBe('v2-e');
		expect(calls.filter(call => call.startsWith('graphql'))).toHaveLength(1);
		retired = true;
		now += 600_000;
		expect((await api.endpointsAndDiscount()).discount).toBeUndefined();
		now += 600_000;
		expect((await api.endpointsAndDiscount()).discount).toBeUndefined();
		expect(calls.filter(call => call.startsWith('graphql'))).toHaveLength(2);
		expect(notices).toEqual([expect.stringMatching(/410 Gone.*discount.*–/)]);
	});
});

describe('what v2 has no route for', () => {
	test('spot pods go to GraphQL while it answers; after its 410 they are refused with why, before anything is sent', async () => {
		const calls: Calls = [];
		let retired = false;
		const api = createManagementApi({choice: 'auto', v2: fakeApi('v2', calls), graphql: fakeApi('graphql', calls, () => (retired ? gone() : undefined))});
		await api.rentInterruptable({gpuTypeId: 'NVIDIA H100', bidPerGpu: 1.2});
		await api.bidResume('p', 1.2);
		expect(calls).toEqual(['graphql.rentInterruptable', 'graphql.bidResume']);
		retired = true;
		await expect(api.bidResume('p', 1.2)).rejects.toThrow(/410/);
		await expect(api.bidResume('p', 1.2)).rejects.toThrow(/v2 has none.*retired/);
		expect(calls).toEqual(['graphql.rentInterruptable', 'graphql.bidResume', 'graphql.bidResume']);
	});
});

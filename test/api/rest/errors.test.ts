import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {keyRefusalStatus} from '../../../source/api/errors.js';
import {Pools} from '../../../source/api/pools.js';
import {createRestApi, type RestAnswerSeen} from '../../../source/api/rest/rest-api.js';
import {restError} from '../../../source/api/rest/rest-errors.js';
import {exitCodeFor} from '../../../source/commands/exit-code.js';
import type {ManagementApi} from '../../../source/model/management-api.js';
import {caught as caughtError} from '../../helpers/caught.js';
import {closeRestSims, startRestSim, type RestSim} from '../../sim/rest/rest-client.js';

const apiKey = 'rpa_RESTERRORS0123456789';
let sim: RestSim;
let pools: Pools;
let api: ManagementApi;
const seen: RestAnswerSeen[] = [];

beforeAll(async () => {
	sim = await startRestSim({apiKey, restQuota: {minute: 10_000, hour: 100_000, day: 1_000_000}});
	pools = new Pools();
	api = createRestApi({baseUrl: sim.url, apiKey, pools, onAnswer: answer => seen.push(answer)});
});

afterAll(async () => {
	await pools.close();
	await closeRestSims();
});

const caught = async (promise: Promise<unknown>) => caughtError(promise, apiKey);
const fault = async (body: unknown) => sim.call('POST', '/__sim/faults', {body});

describe('REST v2 adapter: every failure is an ApiError with the service’s words, sanitised and bounded', () => {
	test('401: a refusal of the key, as GraphQL’s (HTTP 401, exit 3), the key never said', async () => {
		const refused = createRestApi({baseUrl: sim.url, apiKey: 'rpa_WRONGKEY0000000000', pools});
		const error = await caughtError(refused.pods(), 'rpa_WRONGKEY0000000000');
		expect(error).toMatchObject({kind: 'auth', status: 401, message: 'pods: HTTP 401'});
		expect(keyRefusalStatus(error)).toBe(401);
		expect(exitCodeFor(error)).toBe(3);
	});

	test('403 on one route: no permission there (not a refused key); an edge proxy’s empty 403 too', async () => {
		await fault({kind: 'status', status: 403, operation: 'v2:pods', count: 1});
		const forbidden = await caught(api.pods());
		expect(forbidden).toMatchObject({kind: 'forbidden', status: 403});
		expect(forbidden.message).toMatch(/^pods: no permission \(HTTP 403\)/);
		expect(keyRefusalStatus(forbidden)).toBeUndefined();
		expect(exitCodeFor(forbidden)).toBe(3);
		expect(await api.endpoints()).not.toHaveLength(0);
		await fault({kind: 'edge', status: 403, operation: 'v2:serverless', count: 1});
		expect(await caught(api.endpoints())).toMatchObject({kind: 'forbidden', message: 'endpoints: no permission (HTTP 403)'});
	});

	test('404 not found, 409 an action the state does not allow, 400 and 422 with the service’s detail and errors', async () => {
		expect(await caught(api.stop('no-such-pod'))).toMatchObject({kind: 'not-found', status: 404, message: 'stop pod no-such-pod: pod no-such-pod not found'});
		expect(await caught(api.deleteEndpoint('no-such-endpoint'))).toMatchObject({kind: 'not-found'});
		const exited = (await api.pods()).find(pod => pod.desiredStatus === 'EXITED')!;
		const conflict = await caught(api.stop(exited.id));
		expect(conflict).toMatchObject({kind: 'invalid', status: 409});
		expect(conflict.message).toMatch(/cannot stop pod .*: it is EXITED; valid now: start, terminate/);
		expect(await caught(api.saveEndpoint({name: 'x', templateId: 't', gpuIds: 'NO_SUCH_POOL'}))).toMatchObject({
			kind: 'invalid',
			status: 400,
			message: expect.stringMatching(/gpu\.pools must name one or more of/),
		});
		const invalid = await caught(api.updateEndpoint!((await api.endpoints())[0]!.id, {allowedCudaVersions: 'twelve'}));
		expect(invalid).toMatchObject({
			kind: 'invalid',
			status: 422,
			message: expect.stringMatching(/Request validation failed\.; \$\.gpu: CUDA versions are major\.minor/),
		});
	});

	test('429: rate-limited with Retry-After, from the service’s quota and from an edge proxy’s empty answer; 502 and 503 are server errors', async () => {
		const tight = await startRestSim({apiKey, restQuota: {minute: 1, hour: 100, day: 1000}});
		const tightSeen: RestAnswerSeen[] = [];
		const tightApi = createRestApi({baseUrl: tight.url, apiKey, pools, onAnswer: answer => tightSeen.push(answer)});
		await tightApi.endpoints();
		const limited = await caught(tightApi.endpoints());
		expect(limited).toMatchObject({kind: 'rate-limited', status: 429});
		expect(limited.retryAfterMs).toBeGreaterThan(0);
		expect(tightSeen.map(answer => answer.status)).toEqual([200, 429]);
		expect(tightSeen[1]!.headers.get('retry-after')).toBe(String(limited.retryAfterMs! / 1000));
		expect(tightSeen[1]!.headers.get('ratelimit')).toContain('"minute";r=0');

		const before = seen.length;
		await fault([
			{kind: 'edge', status: 429, retryAfter: 4, operation: 'v2:serverless', count: 1},
			{kind: 'edge', status: 502, operation: 'v2:serverless', count: 1},
			{kind: 'status', status: 503, operation: 'v2:serverless', count: 1},
		]);
		expect(await caught(api.endpoints())).toMatchObject({kind: 'rate-limited', status: 429, retryAfterMs: 4000, message: 'endpoints: HTTP 429'});
		expect(await caught(api.endpoints())).toMatchObject({kind: 'server', status: 502, message: 'endpoints: HTTP 502'});
		expect(await caught(api.endpoints())).toMatchObject({kind: 'server', status: 503, message: 'endpoints: Injected fault: HTTP 503'});
		// onAnswer saw each, the empty-bodied ones too.
		expect(seen.slice(before).map(answer => answer.status)).toEqual([429, 502, 503]);
	});

	test('a truncated answer, a malformed one, a reset: an ApiError, never a short list nor a crash', async () => {
		const reads: Record<string, () => Promise<unknown>> = {
			'v2:pods': async () => api.pods(),
			'v2:serverless': async () => api.endpoints(),
			'v2:catalog': async () => api.gpuTypes({secureCloud: false}),
		};
		for (const [operation, read] of Object.entries(reads)) {
			await fault([
				{kind: 'truncated', operation, count: 1},
				{kind: 'malformed', operation, count: 1},
				{kind: 'reset', operation, count: 1},
			]);
			expect(['network', 'server']).toContain((await caught(read())).kind);
			expect(await caught(read())).toMatchObject({kind: 'server', message: expect.stringMatching(/the answer was not what the service sends/)});
			expect((await caught(read())).kind).toBe('network');
		}

		expect((await api.pods()).length).toBeGreaterThan(0);
	});

	test('a problem’s detail and errors are made inert, cut, and never show the key', () => {
		const hostile = restError(
			{
				status: 422,
				body: {
					detail: `bad \u001B[31mred\u001B[0m ${apiKey} ${'x'.repeat(5000)}`,
					errors: Array.from({length: 40}, (_, index) => `$.field${index}: \u009B2J wrong`),
				},
			},
			'save',
			apiKey,
		);
		expect(hostile.message).not.toContain(apiKey);
		expect(hostile.message).not.toMatch(/[\u001B\u009B]/);
		expect(hostile.message.length).toBeLessThan(1400);
		expect(hostile.message).toContain('and 35 more');
		expect(restError({status: 400, body: 'not json'}, 'save', apiKey).message).toBe('save: HTTP 400');
		expect(restError({status: 302, body: undefined}, 'pods', apiKey).kind).toBe('server');
	});

	test('no service: a network error', async () => {
		const closedPools = new Pools({connectMs: 500, headersMs: 500, bodyMs: 500, keepAliveMs: 1000});
		const closed = createRestApi({baseUrl: 'http://127.0.0.1:9', apiKey, pools: closedPools});
		expect((await caught(closed.pods())).kind).toBe('network');
		await closedPools.close();
	});
});

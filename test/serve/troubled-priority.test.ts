import {afterEach, expect, test} from 'vitest';
import {Pools} from '../../source/api/pools.js';
import {createRestApi} from '../../source/api/rest/rest-api.js';
import type {LogTarget} from '../../source/model/log-line.js';
import type {WorkerRecord} from '../../source/model/worker.js';
import {openLogSession} from '../../source/poll/open-log-session.js';
import {createScheduledApi} from '../../source/poll/scheduled-api.js';
import {Scheduler, v2BudgetKey} from '../../source/poll/scheduler.js';
import {createLogHub, type LogHub} from '../../source/serve/log-hub.js';
import {followTroubledWorkers} from '../../source/serve/troubled-workers.js';
import type {BudgetState} from '../../source/store/types.js';
import {waitFor} from '../helpers/sim-client.js';
import {health, testStore} from '../helpers/ui-fixture.js';
import {closeRestSims, startRestSim} from '../sim/rest/rest-client.js';

const apiKey = 'rpa_TROUBLEDPRIORITY0123456789';
const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) {
		await cleanup();
	}

	await closeRestSims();
});

const young = (id: string, now: number): WorkerRecord => ({id, status: 'RUNNING', isStale: false, uptimeSeconds: 60, startedAt: now - 60_000});

/** A store whose endpoint lists one young worker: the agent follows it by itself. */
function storeWith(endpointId: string, workerId: string) {
	const {store, writes} = testStore();
	const now = Date.now();
	writes.setEndpoints([{id: endpointId, name: endpointId, workersMin: 0, workersMax: 2}], 0);
	writes.setHealth(endpointId, health({inQueue: 0, running: 2}), now);
	writes.setWorkers(endpointId, {endpointId, readAt: now, workers: [young(workerId, now)]});
	return {store, writes};
}

test("against the simulator: while v2's budget is busy, a user's stream is connected before the agent's own follow asked first", async () => {
	const sim = await startRestSim({
		apiKey,
		speed: 20,
		restQuota: {minute: 10_000, hour: 100_000, day: 1_000_000},
		endpoints: [{id: 'priorityep1', worker: 'echo', workersMin: 2, workersMax: 2}],
	});
	const listed = await waitFor(async () => {
		const {body} = await sim.rest('GET', '/v2/serverless/priorityep1/workers');
		const ids = (body.workers as Array<{id: string}>).map(worker => worker.id);
		return ids.length >= 2 ? ids : undefined;
	}, 30_000);
	const [troubledWorker, userWorker] = listed as [string, string];

	const scheduler = new Scheduler();
	cleanups.push(() => {
		scheduler.stop();
	});
	const rest = createRestApi({
		baseUrl: sim.url,
		apiKey,
		pools: new Pools(),
		onAnswer(answer) {
			scheduler.observe(v2BudgetKey, answer);
		},
	});
	/** The order in which the scheduler lets the streams connect. */
	const connected: string[] = [];
	const managementApi = {
		...rest,
		streamLogs: (async (target, ...rest_) => {
			connected.push((target as Extract<LogTarget, {kind: 'worker'}>).workerId);
			return rest.streamLogs!(target, ...rest_);
		}) as typeof rest.streamLogs,
	};
	const api = createScheduledApi({jobApi: undefined as never, compatApi: undefined as never, managementApi, managementBudget: () => v2BudgetKey, scheduler});
	const hub: LogHub = createLogHub((subject, query, options) =>
		openLogSession({subject, query, logStream: api.logStream, workers: async id => api.workers(id, 'visible'), background: options?.background}),
	);
	cleanups.push(() => {
		hub.close();
	});

	// v2's one request at a time (its windows not read yet) is taken for a while by a worker list.
	expect((await sim.call('POST', '/__sim/faults', {body: {kind: 'latency', delayMs: 1500, operation: 'v2:serverless', count: 1}})).status).toBe(200);
	const busy = api.workers('priorityep1', 'background');
	await waitFor(() => scheduler.snapshot()[v2BudgetKey]?.inFlight === 1, 10_000);

	// The agent's own follow asks first, then a user presses `l` on another worker.
	const {store} = storeWith('priorityep1', troubledWorker);
	const troubled = followTroubledWorkers({store, hub});
	cleanups.push(() => {
		troubled.close();
	});
	expect(troubled.following()).toEqual([{kind: 'worker', endpointId: 'priorityep1', workerId: troubledWorker}]);
	const lines: string[] = [];
	const unfollow = hub.follow({kind: 'worker', endpointId: 'priorityep1', workerId: userWorker}, {tail: 5}, delivery => {
		if ('lines' in delivery) {
			lines.push(...delivery.lines);
		}
	});
	cleanups.push(unfollow);

	await busy;
	await waitFor(() => connected.length === 2 && lines.length > 0, 30_000);
	expect(connected).toEqual([userWorker, troubledWorker]);
}, 60_000);

const slowed = (reason: NonNullable<BudgetState['slowed']>['reason']): Record<string, BudgetState> => ({
	[v2BudgetKey]: {key: v2BudgetKey, used: 30, allowed: 30, windowMs: 60_000, inFlight: 0, concurrency: 2, slowed: {reason, window: 'minute'}},
});

test("the agent opens no stream of its own while v2's budget is tight, and does once it is not", () => {
	const {store, writes} = storeWith('tightep1', 'w-young');
	const follows: Array<{readonly target: LogTarget; readonly background: boolean}> = [];
	const hub: LogHub = {
		follow(target, _query, _send, options) {
			follows.push({target, background: options?.background ?? false});
			return () => undefined;
		},
		goneWorkers: () => [],
		upstreamCount: () => follows.length,
		close() {},
	};
	writes.setBudgets(slowed('rate-limited'));
	const troubled = followTroubledWorkers({store, hub});
	try {
		expect(follows).toEqual([]);
		writes.setBudgets(slowed('others'));
		expect(follows).toEqual([]);
		writes.setBudgets({[v2BudgetKey]: {key: v2BudgetKey, used: 3, allowed: 30, windowMs: 60_000, inFlight: 0, concurrency: 2}});
		expect(follows).toEqual([{target: {kind: 'worker', endpointId: 'tightep1', workerId: 'w-young'}, background: true}]);
		expect(troubled.following()).toHaveLength(1);
	} finally {
		troubled.close();
	}
});

test("another tool's few requests on the key slow podtop's pace, but leave the agent room to follow its troubled workers", () => {
	const {store, writes} = storeWith('tightep1', 'w-young');
	const follows: LogTarget[] = [];
	const hub: LogHub = {
		follow(target) {
			follows.push(target);
			return () => undefined;
		},
		goneWorkers: () => [],
		upstreamCount: () => follows.length,
		close() {},
	};
	// The service counted 10 more than podtop sent of a minute of 10,000 (an app sending jobs with the same key).
	writes.setBudgets({
		[v2BudgetKey]: {...slowed('others')[v2BudgetKey]!, used: 3, allowed: 10_000, windows: [{name: 'minute', remaining: 9987, limit: 10_000}]},
	});
	const troubled = followTroubledWorkers({store, hub});
	try {
		expect(follows).toEqual([{kind: 'worker', endpointId: 'tightep1', workerId: 'w-young'}]);
	} finally {
		troubled.close();
	}
});

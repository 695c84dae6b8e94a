import {afterEach, describe, expect, test} from 'vitest';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';

let sim: TestSim | undefined;
afterEach(async () => sim?.close());

type Health = {
	jobs: Record<string, number>;
	workers: {idle: number; initializing: number; ready: number; running: number; throttled: number; unhealthy: number};
};

/** Internal consistency of one /health answer. */
function expectConsistent(health: Health): void {
	expect(Object.keys(health.workers).sort()).toEqual(['idle', 'initializing', 'ready', 'running', 'throttled', 'unhealthy']);
	expect(Object.keys(health.jobs).sort()).toEqual(['completed', 'failed', 'inProgress', 'inQueue', 'retried']);
	for (const value of [...Object.values(health.jobs), ...Object.values(health.workers)]) {
		expect(Number.isInteger(value)).toBe(true);
	}

	expect(health.jobs.inProgress).toBe(health.workers.running);
	expect(health.workers.ready).toBe(health.workers.idle + health.workers.running);
}

async function workersOf(sim: TestSim, id: string): Promise<Array<{state: string; jobId?: string}>> {
	const {body} = await sim.call('GET', '/__sim/endpoints');
	return body.endpoints.find((endpoint: {id: string}) => endpoint.id === id).workers;
}

describe('workers and scaling', () => {
	test('QUEUE_DELAY: scales up from zero through cold starts to workersMax, then back to workersMin after the idle timeout', async () => {
		// Speed 20: the 2-second queue delay is 100 ms real, cold starts 0.2 to 0.9 s real, idle timeout 250 ms real.
		sim = await startTestSim({speed: 20, endpoints: [{id: 'q', workersMin: 0, workersMax: 3, scalerType: 'QUEUE_DELAY', scalerValue: 2, idleTimeout: 5}]});
		expect((await sim.health('q')).workers).toEqual({idle: 0, initializing: 0, ready: 0, running: 0, throttled: 0, unhealthy: 0});
		const ids = await Promise.all(Array.from({length: 6}, async () => sim!.run('q', {delay_ms: 60_000})));
		const sawColdStart = await waitFor(async () => {
			const health = await sim!.health('q');
			return health.workers.initializing + health.workers.throttled > 0;
		});
		expect(sawColdStart).toBe(true);
		await waitFor(async () => (await sim!.health('q')).workers.running === 3, 8000);
		const busy = await sim.health('q');
		expectConsistent(busy);
		expect(busy.jobs).toMatchObject({inProgress: 3, inQueue: 3});

		const statuses = await Promise.all(ids.map(async id => (await sim!.status('q', id)).body.status));
		expect(statuses.filter(status => status === 'IN_PROGRESS')).toHaveLength(3);
		expect(statuses.filter(status => status === 'IN_QUEUE')).toHaveLength(3);
		const workers = await workersOf(sim, 'q');
		expect(
			workers
				.filter(worker => worker.state === 'running')
				.map(worker => worker.jobId)
				.sort((a, b) => String(a).localeCompare(String(b))),
		).toEqual(ids.filter((_, index) => statuses[index] === 'IN_PROGRESS').sort((a, b) => a.localeCompare(b)));

		await waitFor(async () => (await sim!.health('q')).jobs.completed === 6, 15_000, 100);
		await waitFor(async () => (await sim!.health('q')).workers.idle === 0 && (await workersOf(sim!, 'q')).length === 0, 5000);
	}, 30_000);

	test('workersMin workers are kept warm and idle workers above it are reaped', async () => {
		sim = await startTestSim({
			speed: 20,
			endpoints: [{id: 'm', workersMin: 2, workersMax: 4, scalerType: 'REQUEST_COUNT', scalerValue: 1, idleTimeout: 4, flashBoot: true}],
		});
		await waitFor(async () => (await sim!.health('m')).workers.idle === 2);
		await Promise.all(Array.from({length: 4}, async () => sim!.run('m', {delay_ms: 10_000})));
		await waitFor(async () => (await sim!.health('m')).workers.running === 4, 5000);
		await waitFor(async () => {
			const health = await sim!.health('m');
			return health.jobs.completed === 4 && health.workers.idle === 2 && (await workersOf(sim!, 'm')).length === 2;
		}, 5000);
	});

	test('REQUEST_COUNT: one worker per scalerValue jobs, capped at workersMax', async () => {
		sim = await startTestSim({speed: 20, endpoints: [{id: 'r', workersMin: 0, workersMax: 5, scalerType: 'REQUEST_COUNT', scalerValue: 2, flashBoot: true}]});
		await Promise.all(Array.from({length: 6}, async () => sim!.run('r', {delay_ms: 600_000})));
		await waitFor(async () => (await sim!.health('r')).workers.running === 3, 5000);
		await new Promise(resolve => setTimeout(resolve, 300));
		expect(await workersOf(sim, 'r')).toHaveLength(3);
		await Promise.all(Array.from({length: 10}, async () => sim!.run('r', {delay_ms: 600_000})));
		await waitFor(async () => (await sim!.health('r')).workers.running === 5, 5000);
		expect(await workersOf(sim, 'r')).toHaveLength(5);
	});

	test('low-priority jobs never trigger scaling', async () => {
		sim = await startTestSim({speed: 20, endpoints: [{id: 'l', workersMin: 0, workersMax: 2, scalerValue: 1}]});
		const low = await sim.run('l', {delay_ms: 10}, {policy: {lowPriority: true}});
		await new Promise(resolve => setTimeout(resolve, 500));
		expect(await workersOf(sim, 'l')).toHaveLength(0);
		expect((await sim.status('l', low)).body.status).toBe('IN_QUEUE');
		const normal = await sim.run('l', {delay_ms: 10});
		await waitFor(async () => (await sim!.status('l', normal)).body.status === 'COMPLETED', 5000);
		await waitFor(async () => (await sim!.status('l', low)).body.status === 'COMPLETED', 5000);
	});

	test('normal jobs overtake low-priority ones in the queue', async () => {
		sim = await startTestSim({speed: 20, endpoints: [{id: 'o', workersMin: 1, workersMax: 1, flashBoot: true}]});
		await waitFor(async () => (await sim!.health('o')).workers.idle === 1);
		const blocker = await sim.run('o', {delay_ms: 2000});
		const low = await sim.run('o', {delay_ms: 2000}, {policy: {lowPriority: true}});
		const normal = await sim.run('o', {delay_ms: 2000});
		await waitFor(async () => (await sim!.status('o', blocker)).body.status === 'COMPLETED', 5000);
		await waitFor(async () => (await sim!.status('o', normal)).body.status === 'IN_PROGRESS', 5000);
		expect((await sim.status('o', low)).body.status).toBe('IN_QUEUE');
	});

	test('a worker can be throttled while its GPU is not free, then serves jobs', async () => {
		sim = await startTestSim({speed: 50, endpoints: [{id: 't', workersMin: 0, workersMax: 40, scalerType: 'REQUEST_COUNT', scalerValue: 1, flashBoot: true}]});
		await Promise.all(Array.from({length: 40}, async () => sim!.run('t', {delay_ms: 30_000})));
		const throttled = await waitFor(async () => (await sim!.health('t')).workers.throttled, 3000, 5);
		expect(throttled).toBeGreaterThan(0);
		// Then they serve: every job is done (40 at once was a race: the first 30-simulated-second jobs can end before the last worker starts).
		await waitFor(async () => (await sim!.health('t')).jobs.completed === 40, 20_000);
		expectConsistent(await sim.health('t'));
	});

	test('/health counters: completed, failed (TIMED_OUT included) and retried are cumulative', async () => {
		sim = await startTestSim({speed: 20, endpoints: [{id: 'c', workersMin: 2, workersMax: 2, flashBoot: true}]});
		await waitFor(async () => (await sim!.health('c')).workers.idle === 2);
		await sim.run('c', {delay_ms: 10});
		const failing = await sim.run('c', {delay_ms: 10, error: 'x'});
		await sim.run('c', {delay_ms: 600_000}, {policy: {executionTimeout: 6000}});
		await waitFor(async () => (await sim!.health('c')).jobs.failed === 2, 5000);
		await sim.call('POST', `/v2/c/retry/${failing}`);
		await waitFor(async () => (await sim!.health('c')).jobs.failed === 3, 5000);
		const health = await sim.health('c');
		expect(health.jobs).toEqual({completed: 1, failed: 3, inProgress: 0, inQueue: 0, retried: 1});
		expectConsistent(health);
	});
});

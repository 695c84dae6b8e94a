import {afterEach, describe, expect, test} from 'vitest';
import {waitFor, waitForStatus} from '../../helpers/sim-client.js';
import {closeRestSims, startRestSim, type RestSim} from './rest-client.js';
import {openLogStream, type LogEvent} from './sse-client.js';

afterEach(closeRestSims);

const echo = {id: 'echoendpoint02', worker: 'echo', workersMin: 1, workersMax: 1, flashBoot: true} as const;

async function firstWorker(sim: RestSim, endpoint: string, status = 'IDLE'): Promise<string> {
	return waitFor(async () => (await sim.rest('GET', `/v2/serverless/${endpoint}/workers`)).body.workers.find((worker: any) => worker.status === status)?.id);
}

async function runJobs(sim: RestSim, count: number): Promise<string[]> {
	const jobs: string[] = [];
	for (let index = 0; index < count; index++) {
		jobs.push(await sim.run(echo.id, {delay_ms: 10}));
		await waitForStatus(sim, echo.id, jobs.at(-1)!, 'COMPLETED');
	}

	return jobs;
}

const finished = (job: string) => (event: LogEvent) => event.data.line.includes(job) && event.data.line.includes('Finished.');

describe('v2 log streams', () => {
	test('live lines follow the backlog; Last-Event-ID resumes after a drop with no line lost or doubled, and wins over tail and since', async () => {
		const sim = await startRestSim({speed: 20, endpoints: [echo]});
		const worker = await firstWorker(sim, echo.id);
		const path = `/v2/serverless/${echo.id}/workers/${worker}/logs`;
		const live = await openLogStream(sim, `${path}?tail=0`);
		const before = await runJobs(sim, 5);
		const seen = await live.takeUntil(finished(before.at(-1)!));
		expect(seen).toHaveLength(15);
		live.close();
		const during = await runJobs(sim, 5);
		const resumed = await openLogStream(sim, `${path}?tail=1&since=2020-01-01T00:00:00Z`, {'last-event-id': seen.at(-1)!.id});
		const rest = await resumed.takeUntil(finished(during.at(-1)!));
		const after = await runJobs(sim, 2);
		rest.push(...(await resumed.takeUntil(finished(after.at(-1)!))));
		resumed.close();
		const whole = await openLogStream(sim, `${path}?tail=5000`);
		const everything = await whole.takeUntil(finished(after.at(-1)!));
		whole.close();
		const ids = [...seen, ...rest].map(event => event.id);
		expect(new Set(ids).size).toBe(ids.length);
		expect(ids).toEqual(everything.slice(everything.findIndex(event => event.id === seen[0]!.id)).map(event => event.id));
		expect(rest).toHaveLength(3 * 7);
	});

	test('the stream ends when its worker goes; a gone worker is 404', async () => {
		const sim = await startRestSim({speed: 20, endpoints: [echo]});
		const worker = await firstWorker(sim, echo.id);
		const path = `/v2/serverless/${echo.id}/workers/${worker}/logs`;
		const stream = await openLogStream(sim, `${path}?tail=0`);
		await sim.rest('PATCH', `/v2/serverless/${echo.id}`, {body: {workers: {min: 0, max: 0}}});
		await stream.ended;
		expect(stream.events.map(event => event.data.line)).toEqual(['Stopping worker: scaled down: over workers.max', 'Container stopped']);
		expect((await openLogStream(sim, path)).status).toBe(404);
		expect((await sim.rest('GET', `/v2/serverless/${echo.id}/workers`)).body.summary.total).toBe(0);
	});
});

describe('the crash-loop fault', () => {
	test('containers die and restart while the service shows RUNNING or THROTTLED and unhealthy 0; no job is served until it is cleared', async () => {
		const sim = await startRestSim({speed: 20, endpoints: [echo], faults: [{kind: 'crash-loop', endpoint: echo.id, cause: 'oom'}]});
		const worker = await waitFor(async () => (await sim.rest('GET', `/v2/serverless/${echo.id}/workers`)).body.workers.find((each: any) => each.gpuTypeId));
		const stream = await openLogStream(sim, `/v2/serverless/${echo.id}/workers/${worker.id}/logs?tail=5000`);
		const job = await sim.run(echo.id, {delay_ms: 10});
		await stream.takeUntil(event => event.data.line === 'Container killed: out of memory (OOMKilled, exit code 137)');
		await stream.takeUntil(event => event.data.line.startsWith('Back-off 10s restarting failed container'));
		const {body} = await sim.rest('GET', `/v2/serverless/${echo.id}/workers`);
		expect(['RUNNING', 'THROTTLED']).toContain(body.workers[0].status);
		expect(body.summary.unhealthy).toBe(0);
		const health = await sim.health(echo.id);
		expect(health.workers.unhealthy).toBe(0);
		expect(health.workers.running + health.workers.throttled).toBe(1);
		expect(health.jobs).toMatchObject({inQueue: 1, inProgress: 0});
		expect((await sim.status(echo.id, job)).body.status).toBe('IN_QUEUE');
		await stream.takeUntil(event => event.data.line === 'Starting container');
		expect(stream.events.some(event => event.data.line === 'Worker ready')).toBe(false);
		expect((await sim.call('DELETE', '/__sim/faults')).status).toBe(200);
		await waitForStatus(sim, echo.id, job, 'COMPLETED', 20_000);
		stream.close();
		expect((await sim.call('POST', '/__sim/faults', {body: {kind: 'crash-loop', cause: 'gremlins'}})).status).toBe(400);
	});

	test('a crash-looping worker is replaced after 3 restarts by one with a new id', async () => {
		const sim = await startRestSim({speed: 40, endpoints: [echo], faults: [{kind: 'crash-loop', endpoint: echo.id, cause: 'import-error'}]});
		const first = await waitFor(async () => (await sim.rest('GET', `/v2/serverless/${echo.id}/workers`)).body.workers[0]?.id);
		const stream = await openLogStream(sim, `/v2/serverless/${echo.id}/workers/${first}/logs?tail=5000`);
		await stream.ended;
		const lines = stream.events.map(event => event.data.line);
		expect(lines.filter(line => line === "ModuleNotFoundError: No module named 'vllm'")).toHaveLength(4);
		expect(lines.at(-2)).toBe('Stopping worker: crash loop: gave up after 3 restarts');
		const next = await waitFor(async () => (await sim.rest('GET', `/v2/serverless/${echo.id}/workers`)).body.workers.find((each: any) => each.id !== first));
		expect(next.isStale).toBe(false);
	});
});

test('the demo fleet has one crash-looping endpoint: RUNNING or THROTTLED, unhealthy 0, and its log says why', async () => {
	const sim = await startRestSim({speed: 20});
	const broken = sim.endpoints.find(endpoint => endpoint.name === 'llava-next-34b')!;
	expect(sim.endpoints.filter(endpoint => endpoint.crashLoop)).toEqual([broken]);
	const worker = await waitFor(async () => (await sim.rest('GET', `/v2/serverless/${broken.id}/workers`)).body.workers.find((each: any) => each.gpuTypeId));
	const stream = await openLogStream(sim, `/v2/serverless/${broken.id}/workers/${worker.id}/logs?tail=5000`);
	await stream.takeUntil(event => event.data.line.startsWith('OSError: [Errno 28] No space left on device'));
	stream.close();
	const {body} = await sim.rest('GET', `/v2/serverless/${broken.id}/workers`);
	expect(body.workers.every((each: any) => ['RUNNING', 'THROTTLED', 'INITIALIZING'].includes(each.status))).toBe(true);
	expect((await sim.health(broken.id)).workers.unhealthy).toBe(0);
});

import {afterEach, describe, expect, test} from 'vitest';
import {Pools} from '../../source/api/pools.js';
import {createRestApi} from '../../source/api/rest/rest-api.js';
import type {LogLine, LogQuery} from '../../source/model/log-line.js';
import type {LogSession, LogSnapshot, LogSubject} from '../../source/model/log-session.js';
import {openLogSession} from '../../source/poll/open-log-session.js';
import {createScheduledApi} from '../../source/poll/scheduled-api.js';
import {Scheduler, v2BudgetKey} from '../../source/poll/scheduler.js';
import {waitFor} from '../helpers/sim-client.js';
import {sseEvent, sseHead, startSseServer, type SseServer} from '../helpers/sse-server.js';
import {closeRestSims, startRestSim} from '../sim/rest/rest-client.js';

const apiKey = 'rpa_LOGSESSION0123456789';
const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) {
		await cleanup();
	}

	await closeRestSims();
});

type Follow = {
	stallMs?: number;
	capacity?: number;
	listEveryMs?: number;
	kept?: (endpointId: string, workerId: string) => Promise<readonly LogLine[] | undefined>;
};

function open(baseUrl: string, subject: LogSubject, query: LogQuery, {stallMs, capacity, listEveryMs, kept}: Follow = {}) {
	const pools = new Pools();
	const scheduler = new Scheduler();
	const managementApi = createRestApi({
		baseUrl,
		apiKey,
		pools,
		onAnswer(answer) {
			scheduler.observe(v2BudgetKey, answer);
		},
	});
	const api = createScheduledApi({
		// A log session reads neither.
		jobApi: undefined as never,
		compatApi: undefined as never,
		managementApi,
		managementBudget: () => v2BudgetKey,
		scheduler,
	});
	const session = openLogSession({
		subject,
		query,
		logStream: api.logStream,
		workers: async endpointId => api.workers(endpointId, 'visible'),
		capacity,
		listEveryMs,
		kept,
		follow: {stallMs, backoff: {firstMs: 20, maxMs: 100}},
	});
	cleanups.push(async () => {
		session.close();
		scheduler.stop();
		await pools.close();
	});
	return {session, scheduler};
}

/** A merged view's snapshot once one of the `first` workers is gone (and said to have left) and a later one gave a line. */
const goneAndJoined =
	(first: readonly string[]) =>
	({streams, lines}: LogSnapshot): boolean => {
		const gone = streams.find(stream => stream.state === 'gone' && first.includes(stream.origin));
		const joined = streams.find(stream => !first.includes(stream.origin) && lines.some(line => line.origin === stream.origin && !line.note));
		return gone !== undefined && joined !== undefined && lines.some(line => line.note && line.origin === gone.origin);
	};

/** The session's snapshot once `ready` accepts it (read at each notification). */
async function until(session: LogSession, ready: (snapshot: LogSnapshot) => boolean): Promise<LogSnapshot> {
	return new Promise(resolve => {
		const check = () => {
			const snapshot = session.snapshot();
			if (ready(snapshot)) {
				unsubscribe();
				resolve(snapshot);
			}
		};

		const unsubscribe = session.subscribe(check);
		check();
	});
}

async function serve(write: Parameters<typeof startSseServer>[0]): Promise<SseServer> {
	const server = await startSseServer(write);
	cleanups.push(async () => server.close());
	return server;
}

const pod: LogSubject = {kind: 'pod', podId: 'p1'};
const seqOf = (lastEventId: string | string[] | undefined) => Number(String(lastEventId ?? '0').split('/')[1] ?? 0);

describe('a followed log', () => {
	test('a drop mid-stream is resumed with Last-Event-ID: no line lost or doubled, even when the service sends its last second again', async () => {
		const server = await serve((request, response, index) => {
			response.writeHead(200, sseHead);
			const from = seqOf(request.headers['last-event-id']);
			if (index === 0) {
				// Five lines, then the connection breaks.
				response.write(Array.from({length: 5}, (_, at) => sseEvent(at + 1, `line ${at + 1}`)).join(''));
				setTimeout(() => response.socket?.destroy(), 50);
				return;
			}

			// A service that resumes from the whole second sends the last line again.
			response.write(Array.from({length: 10 - from + 1}, (_, at) => sseEvent(from + at, `line ${from + at}`)).join(''));
		});
		const {session} = open(server.url, pod, {tail: 100});
		const snapshot = await until(session, ({lines}) => lines.length >= 10);
		expect(snapshot.lines.map(line => line.line)).toEqual(Array.from({length: 10}, (_, at) => `line ${at + 1}`));
		expect(snapshot.lines.map(line => line.seq)).toEqual(Array.from({length: 10}, (_, at) => at + 1));
		expect(server.requests[1]!.headers['last-event-id']).toBe('2026-06-01T12:00:00Z/000000000005');
		expect(server.requests[0]!.url).toContain('tail=100');
		expect(snapshot.streams).toEqual([{origin: 'p1', state: 'live'}]);
	});

	test('a stall (bytes stop, keep-alives too) is dropped and resumed; keep-alives alone keep a stream live', async () => {
		const server = await serve((request, response, index) => {
			response.writeHead(200, sseHead);
			if (index === 0) {
				response.write(sseEvent(1, 'first'));
				return; // Then nothing at all.
			}

			response.write(sseEvent(seqOf(request.headers['last-event-id']) + 1, 'after the stall'));
			const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), 20);
			response.once('close', () => {
				clearInterval(keepAlive);
			});
		});
		const {session} = open(server.url, pod, {tail: 10}, {stallMs: 500});
		const states: string[] = [];
		const said: string[] = [];
		session.subscribe(() => {
			states.push(session.snapshot().streams[0]!.state);
			said.push(JSON.stringify(session.snapshot().streams[0]));
		});
		const snapshot = await until(session, ({lines}) => lines.length === 2);
		expect(snapshot.lines.map(line => line.line)).toEqual(['first', 'after the stall']);
		expect(states).toContain('reconnecting');
		// Several stall windows of keep-alives only: still the one connection.
		await new Promise(resolve => {
			setTimeout(resolve, 1500);
		});
		expect(server.requests).toHaveLength(2);
		expect(session.snapshot().streams[0], JSON.stringify(said)).toMatchObject({state: 'live'});
	});

	test('a stream that never ends keeps a bounded buffer and counts what it dropped', async () => {
		const server = await serve((_request, response) => {
			response.writeHead(200, sseHead);
			let seq = 0;
			const write = () => {
				if (response.destroyed || seq >= 20_000) {
					return;
				}

				const batch = Array.from({length: 500}, () => sseEvent(++seq, `line ${seq} ${'y'.repeat(100)}`)).join('');
				response.write(batch, write);
			};

			write();
		});
		const {session} = open(server.url, pod, {tail: 0}, {capacity: 1000});
		const snapshot = await until(session, ({dropped, lines}) => dropped + lines.length >= 20_000);
		expect(snapshot.lines).toHaveLength(1000);
		expect(snapshot.capacity).toBe(1000);
		expect(snapshot.dropped).toBe(19_000);
		expect(snapshot.lines[0]!.line).toMatch(/^line 19001 /);
		expect(snapshot.lines.at(-1)!.seq).toBe(20_000);
	});

	test('a worker the service answers 404 for shows what the agent kept of it (the history file) before it says gone, as the query asks', async () => {
		const sim = await startRestSim({apiKey, restQuota: {minute: 10_000, hour: 100_000, day: 1_000_000}});
		const endpoint = sim.endpoints[0]!;
		const asked: string[] = [];
		const keptLine = (index: number, source: LogLine['source']): LogLine => ({
			id: `2026-12-01T12:00:0${index}Z/000000000001`,
			ts: index,
			source,
			line: `kept ${index}`,
		});
		const {session} = open(
			sim.url,
			{kind: 'worker', endpointId: endpoint.id, workerId: 'w-gone'},
			{tail: 2, source: 'container'},
			{
				async kept(endpointId, workerId) {
					asked.push(`${endpointId}/${workerId}`);
					return [keptLine(1, 'container'), keptLine(2, 'system'), keptLine(3, 'container'), keptLine(4, 'container')];
				},
			},
		);
		const seen: LogSnapshot[] = [];
		session.subscribe(() => seen.push(session.snapshot()));
		const ended = await until(session, ({streams}) => streams[0]?.state === 'gone');
		expect(asked).toEqual([`${endpoint.id}/w-gone`]);
		// The container's last two, and the reason says whose they are; never gone with nothing shown yet.
		expect(ended.lines.map(line => line.line)).toEqual(['kept 3', 'kept 4']);
		expect(ended.streams[0]!.reason).toMatch(/; the 2 lines before are the last the agent kept of it \(from the history file\)$/);
		expect(seen.filter(snapshot => snapshot.streams[0]?.state === 'gone' && snapshot.lines.length === 0)).toEqual([]);
	});

	test('against the simulator: a 429 on connect waits as the budget says, then the stream opens; a gone worker is gone', async () => {
		const sim = await startRestSim({apiKey, speed: 20, restQuota: {minute: 10_000, hour: 100_000, day: 1_000_000}});
		const running = (await sim.rest('GET', '/v2/pods')).body.pods.find((each: any) => each.status === 'RUNNING');
		expect((await sim.call('POST', '/__sim/faults', {body: {kind: 'status', status: 429, retryAfter: 1, operation: 'v2:pods', count: 2}})).status).toBe(200);
		const {session, scheduler} = open(sim.url, {kind: 'pod', podId: running.id}, {tail: 3});
		const snapshot = await until(session, ({lines}) => lines.length === 3);
		expect(snapshot.streams).toEqual([{origin: running.id, state: 'live'}]);
		expect(scheduler.rateLimitedRecently().lastHour).toBe(2);

		const endpoint = sim.endpoints.find(each => each.name === 'llava-next-34b')!;
		const gone = open(sim.url, {kind: 'worker', endpointId: endpoint.id, workerId: 'no-such-worker'}, {tail: 3}).session;
		const ended = await until(gone, ({streams}) => streams[0]?.state === 'gone');
		expect(ended.streams[0]!.reason).toMatch(/not found/);
		expect(ended.lines).toEqual([]);
	});

	test('against the simulator: a worker that goes while its endpoint’s merged view is open keeps its lines, is marked gone, and its leaving and its successor’s joining are said in the view, no line lost or twice', async () => {
		const sim = await startRestSim({
			apiKey,
			speed: 20,
			restQuota: {minute: 10_000, hour: 100_000, day: 1_000_000},
			endpoints: [{id: 'mergedgoneep1', worker: 'echo', workersMin: 2, workersMax: 2}],
			faults: [{kind: 'crash-loop', endpoint: 'mergedgoneep1', cause: 'oom'}],
		});
		const first = await waitFor(async () => {
			const list = (await sim.rest('GET', '/v2/serverless/mergedgoneep1/workers')).body.workers as Array<{id: string}>;
			return list.length === 2 ? list.map(worker => worker.id) : undefined;
		}, 30_000);
		const {session} = open(sim.url, {kind: 'endpoint', endpointId: 'mergedgoneep1'}, {tail: 200}, {listEveryMs: 200});
		// A worker gives up after its third restart; the service lists another in its place.
		const snapshot = await until(session, goneAndJoined(first));
		const gone = snapshot.streams.find(stream => stream.state === 'gone' && first.includes(stream.origin))!;
		const joined = snapshot.streams.find(stream => !first.includes(stream.origin))!;
		const linesOf = (origin: string) => snapshot.lines.filter(line => line.origin === origin);
		// Its lines stay, its crash among them, each once.
		expect(linesOf(gone.origin).map(line => line.line)).toContain('Container killed: out of memory (OOMKilled, exit code 137)');
		const told = snapshot.lines.filter(line => !line.note);
		expect(new Set(told.map(line => `${line.origin} ${line.source} ${line.id}`)).size).toBe(told.length);
		// Said in the view, after the worker's last line: it left, and who joined.
		const notes = snapshot.lines.filter(line => line.note);
		expect(notes.find(line => line.origin === gone.origin)?.line).toMatch(/^worker .+ left \(gone/);
		expect(linesOf(gone.origin).at(-1)!.note).toBe(true);
		expect(notes.find(line => line.origin === joined.origin)?.line).toMatch(/^worker .+ joined$/);
		// The workers there when the view opened joined nothing.
		expect(notes.filter(line => first.includes(line.origin) && line.line.includes('joined'))).toEqual([]);
		// Marked gone, and never followed again though a lagging list may still show it.
		expect(snapshot.streams.filter(stream => stream.origin === gone.origin)).toHaveLength(1);
	}, 90_000);

	test('against the simulator: an endpoint’s workers merged, each line tagged with its worker', async () => {
		const sim = await startRestSim({apiKey, speed: 20, restQuota: {minute: 10_000, hour: 100_000, day: 1_000_000}});
		const endpoint = sim.endpoints.find(each => each.name === 'llava-next-34b')!;
		const workers = await waitFor(async () => {
			const list = (await sim.rest('GET', `/v2/serverless/${endpoint.id}/workers`)).body.workers as Array<{id: string}>;
			return list.length > 0 ? list : undefined;
		});
		const {session} = open(sim.url, {kind: 'endpoint', endpointId: endpoint.id}, {tail: 5}, {listEveryMs: 200});
		const snapshot = await until(session, ({lines}) => workers.every(worker => lines.filter(line => line.origin === worker.id).length >= 5));
		expect(snapshot.streams.map(stream => stream.origin)).toEqual(expect.arrayContaining(workers.map(worker => worker.id)));
		expect(new Set(snapshot.lines.map(line => `${line.origin} ${line.id}`)).size).toBe(snapshot.lines.length);
	});
});

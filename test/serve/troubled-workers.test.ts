import {mkdtempSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import type {Engine} from '../../source/engine/create-engine.js';
import {historyFileName, openHistoryForReading} from '../../source/history/history-file.js';
import {keptLinesPerWorker} from '../../source/history/kept-logs.js';
import {createSqliteReader} from '../../source/history/sqlite-reader.js';
import {defaultCadence} from '../../source/poll/cadence.js';
import {serveAgent, type AgentServer} from '../../source/serve/agent-server.js';
import {createLogHub, type LogHub} from '../../source/serve/log-hub.js';
import {followTroubledWorkers, troubledStreamsPerEndpoint, troubledWorkers, type TroubledWorkers} from '../../source/serve/troubled-workers.js';
import type {WorkerRecord} from '../../source/model/worker.js';
import {engineFor} from '../helpers/engine.js';
import {health, testStore} from '../helpers/ui-fixture.js';
import {waitFor} from '../helpers/sim-client.js';
import {closeRestSims, startRestSim, type RestSim} from '../sim/rest/rest-client.js';

const key = 'rpa_TROUBLEDWORKERS00001111222233';
const runtime = mkdtempSync(join(tmpdir(), 'podtop-troubled-runtime-'));
const historyDirectory = mkdtempSync(join(tmpdir(), 'podtop-troubled-history-'));
const crashy = 'crashloopingep1';
const fast = {...defaultCadence, healthMs: 300, workersOpenMs: 300, workersQueuedMs: 600, releasesMs: 2000};
let sim: RestSim;
let agent: Engine;
let hub: LogHub;
let troubled: TroubledWorkers;
let server: AgentServer;
/** The most workers of one endpoint the agent followed at once, seen on every change of its store. */
let mostFollowed = 0;

beforeAll(async () => {
	process.env.XDG_RUNTIME_DIR = runtime;
	sim = await startRestSim({
		apiKey: key,
		speed: 20,
		restQuota: {minute: 10_000, hour: 100_000, day: 1_000_000},
		endpoints: [{id: crashy, worker: 'echo', workersMin: 8, workersMax: 8, gpuIds: 'ADA_24'}],
		faults: [{kind: 'crash-loop', endpoint: crashy, cause: 'oom'}],
	});
	agent = await engineFor(sim, {poll: ['endpoints', 'gpus', 'workers'], allVisible: true, cadence: fast, record: true, history: {directory: historyDirectory}});
	hub = createLogHub(agent.openLogs!, {keptLogs: agent.history.keptLogs});
	server = await serveAgent({store: agent.store, socketPath: agent.agentLink!.socketPath, secret: agent.agentLink!.secret, logs: hub});
	troubled = followTroubledWorkers({store: agent.store, hub});
	agent.store.subscribe(() => {
		const perEndpoint = troubled.following().filter(target => target.endpointId === crashy).length;
		mostFollowed = Math.max(mostFollowed, perEndpoint);
	});
	agent.start();
	// Jobs wait at the crash-looping endpoint (none is served): the agent reads its workers.
	await sim.run(crashy, {delay_ms: 10});
}, 30_000);

afterAll(async () => {
	troubled.close();
	await server.close();
	await agent.close();
	await closeRestSims();
});

describe('the agent keeps what the service forgets', () => {
	test("with no client following, a crash-looping endpoint's workers are followed by the agent (5 of 8), and a gone one's last lines are in the history file", async () => {
		// The crash-looping endpoint's workers: at most five followed, whatever the list holds.
		await waitFor(() => troubled.following().filter(target => target.endpointId === crashy).length === troubledStreamsPerEndpoint, 30_000);
		expect(agent.store.getState().workers.byEndpoint[crashy]!.list.workers.length).toBeGreaterThan(troubledStreamsPerEndpoint);
		// A worker gives up after its third restart, and the service forgets it.
		const gone = await waitFor(() => hub.goneWorkers(crashy)[0], 60_000);
		expect(mostFollowed).toBe(troubledStreamsPerEndpoint);
		expect(troubled.following().length).toBeLessThanOrEqual(20);

		// Another reader of the file (as `podtop logs` without an agent): the lines are written (committed), the crash among them.
		const file = join(historyDirectory, historyFileName({apiUrl: `${sim.url}/v2`, graphqlUrl: `${sim.url}/graphql`, apiKey: key}));
		const reader = createSqliteReader({db: openHistoryForReading(file)!, file});
		try {
			const lines = (await reader.keptLines!(crashy, gone))!;
			expect(lines.length).toBeGreaterThan(0);
			expect(lines.length).toBeLessThanOrEqual(keptLinesPerWorker);
			expect(lines.map(line => line.line)).toContain('Container killed: out of memory (OOMKilled, exit code 137)');
			const ids = lines.map(line => line.id);
			expect(ids).toEqual(ids.toSorted());
			expect(new Set(ids).size).toBe(ids.length);
		} finally {
			await reader.close();
		}
	}, 120_000);

	test('a client that asks through the agent for the gone worker gets its kept lines, then gone, told they are what the agent kept', async () => {
		const gone = await waitFor(() => hub.goneWorkers(crashy)[0], 60_000);
		const client = await engineFor(sim, {agent: true, poll: []});
		try {
			const session = client.openLogs!({kind: 'worker', endpointId: crashy, workerId: gone}, {tail: 200});
			const stream = await waitFor(() => (session.snapshot().streams[0]?.state === 'gone' ? session.snapshot().streams[0] : undefined), 30_000);
			expect(session.snapshot().lines.map(line => line.line)).toContain('Container killed: out of memory (OOMKilled, exit code 137)');
			expect(stream.reason).toMatch(/the \d+ lines before are the last the agent kept of it$/);
		} finally {
			await client.close();
		}
	}, 60_000);
});

const record = (id: string, status: string, uptimeSeconds: number, now: number): WorkerRecord => ({
	id,
	status,
	isStale: false,
	uptimeSeconds,
	startedAt: now - uptimeSeconds * 1000,
});

describe('which workers the agent follows by itself', () => {
	test('UNHEALTHY first, then the young; a worker of a healthy endpoint past ten minutes is not followed; 5 an endpoint, 20 in all', () => {
		const {store, writes} = testStore();
		const now = Date.now();
		const ids = Array.from({length: 6}, (_, index) => `ep${index}`);
		writes.setEndpoints(
			ids.map(id => ({id, name: id, workersMin: 0, workersMax: 10})),
			0,
		);
		for (const id of ids) {
			writes.setHealth(id, health({inQueue: 0, running: 8}), now);
			writes.setWorkers(id, {
				endpointId: id,
				readAt: now,
				workers: [
					record(`${id}-old`, 'RUNNING', 3600, now),
					record(`${id}-sick`, 'UNHEALTHY', 3600, now),
					...Array.from({length: 6}, (_, index) => record(`${id}-young${index}`, 'RUNNING', 60 + index, now)),
				],
			});
		}

		const chosen = troubledWorkers(store.getState(), now);
		expect(chosen).toHaveLength(20);
		for (const id of ids) {
			expect(chosen.filter(({target}) => target.endpointId === id).length).toBeLessThanOrEqual(troubledStreamsPerEndpoint);
		}

		const workers = chosen.map(({target}) => target.workerId);
		// Every UNHEALTHY worker is in, none of those past ten minutes that read healthy.
		expect(ids.every(id => workers.includes(`${id}-sick`))).toBe(true);
		expect(workers.some(worker => worker.endsWith('-old'))).toBe(false);
		// The 14 streams left after the 6 UNHEALTHY go to the youngest of all endpoints (6 of 60 s, 6 of 61 s, 2 of 62 s).
		expect(workers.filter(worker => worker.includes('-young0'))).toHaveLength(6);
		expect(workers.filter(worker => worker.includes('-young1'))).toHaveLength(6);
		expect(workers.filter(worker => worker.includes('-young2'))).toHaveLength(2);
	});
});

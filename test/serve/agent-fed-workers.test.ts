import {mkdtempSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, expect, test} from 'vitest';
import type {Engine} from '../../source/engine/create-engine.js';
import {defaultCadence} from '../../source/poll/cadence.js';
import {serveAgent, type AgentServer} from '../../source/serve/agent-server.js';
import {diagnosisWord, endpointDiagnosis} from '../../source/store/endpoint-diagnosis.js';
import type {PodtopState} from '../../source/store/state.js';
import {engineFor, simStats} from '../helpers/engine.js';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';

const key = 'rpa_AGENTFEDWORKERS0000111122223333';
// The agent reads the waiting endpoints' workers every 2 s (so it sees the crash loop's restarts soon); a client that read them too would every half-second.
const agentCadence = {...defaultCadence, workersQueuedMs: 2000};
const clientCadence = {...defaultCadence, workersQueuedMs: 500};
let sim: TestSim;
let agent: Engine;
let server: AgentServer;
let crashing: string;
const clients: Engine[] = [];

const wordOf = (state: PodtopState, endpointId: string) => diagnosisWord(endpointDiagnosis(state, endpointId, Date.now()));

beforeAll(async () => {
	process.env.XDG_RUNTIME_DIR = mkdtempSync(join(tmpdir(), 'podtop-agent-fed-workers-'));
	sim = await startTestSim({apiKey: key, load: true, restQuota: {minute: 10_000, hour: 100_000, day: 1_000_000}});
	agent = await engineFor(sim, {allVisible: true, poll: ['endpoints', 'pods', 'gpus', 'workers'], cadence: agentCadence, history: {disabled: true}});
	server = await serveAgent({store: agent.store, socketPath: agent.agentLink!.socketPath, secret: agent.agentLink!.secret});
	agent.start();
	// The demo's llava-next-34b crash-loops with its workers shown RUNNING or THROTTLED, unhealthy 0: only their reads say so.
	crashing = await waitFor(() => {
		const state = agent.store.getState();
		return state.endpoints.order.find(id => state.endpoints.byId[id]!.record.name === 'llava-next-34b');
	}, 20_000);
	await waitFor(() => wordOf(agent.store.getState(), crashing) === 'crash loop', 120_000, 200);
}, 160_000);

afterAll(async () => {
	await Promise.all(clients.map(async client => client.close()));
	await server.close();
	await agent.close();
	await sim.close();
});

const workerReads = async () =>
	Object.values(await simStats(sim)).reduce((sum, operations) => sum + (operations['GET /serverless/{id}/workers']?.requests ?? 0), 0);

test("a dashboard fed by the agent diagnoses a crash loop it has not opened from the agent's worker reads, and reads only its open endpoint's workers", async () => {
	const client = await engineFor(sim, {agent: true, cadence: clientCadence, history: {disabled: true}});
	clients.push(client);
	client.start();
	await waitFor(() => client.store.getState().via === 'agent', 20_000);
	// What the client sent before it attached has come back.
	await new Promise(resolve => setTimeout(resolve, 1000));
	const agentReads = (await simStats(sim)).rest?.['GET /serverless/{id}/workers']?.requests ?? 0;
	expect(agentReads).toBeGreaterThan(0);
	await waitFor(() => wordOf(client.store.getState(), crashing) === 'crash loop', 10_000, 100);
	expect(client.store.getState().workers.byEndpoint[crashing]?.list.workers.length).toBeGreaterThan(0);

	// It opens another endpoint: that one's workers are its own to read, every 5 s; the waiting ones stay the agent's.
	const other = client.store.getState().endpoints.order.find(id => id !== crashing)!;
	const unwatch = client.watchEndpoint(other);
	try {
		await waitFor(() => client.store.getState().workers.byEndpoint[other], 10_000);
		const waiting = Object.keys(agent.store.getState().workers.byEndpoint).length;
		const before = await workerReads();
		await new Promise(resolve => setTimeout(resolve, 4000));
		// The agent alone: each waiting endpoint every 2 s (3 reads in 4 s at most, one that began to wait: at once); the client: its open endpoint, 2 at most.
		expect((await workerReads()) - before).toBeLessThanOrEqual(waiting * 3 + 2 + 2);
		// Still fed: the crash loop's diagnosis stands on the agent's reads.
		expect(wordOf(client.store.getState(), crashing)).toBe('crash loop');
	} finally {
		unwatch();
	}
}, 60_000);

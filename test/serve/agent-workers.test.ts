import {mkdtempSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, expect, test} from 'vitest';
import type {Engine} from '../../source/engine/create-engine.js';
import {defaultCadence} from '../../source/poll/cadence.js';
import {serveAgent, type AgentServer} from '../../source/serve/agent-server.js';
import {engineFor, simStats} from '../helpers/engine.js';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';

const key = 'rpa_AGENTWORKERSSECRET00001111222233';
// The agent reads the waiting endpoints' workers once a minute; a client that read them too would every half-second.
const agentCadence = {...defaultCadence, workersQueuedMs: 60_000};
const clientCadence = {...defaultCadence, workersQueuedMs: 500};
let sim: TestSim;
let agent: Engine;
let server: AgentServer;
const clients: Engine[] = [];

beforeAll(async () => {
	process.env.XDG_RUNTIME_DIR = mkdtempSync(join(tmpdir(), 'podtop-agent-workers-'));
	sim = await startTestSim({apiKey: key, load: true, restQuota: {minute: 10_000, hour: 100_000, day: 1_000_000}});
	agent = await engineFor(sim, {allVisible: true, poll: ['endpoints', 'pods', 'gpus', 'workers'], cadence: agentCadence, history: {disabled: true}});
	server = await serveAgent({store: agent.store, socketPath: agent.agentLink!.socketPath, secret: agent.agentLink!.secret});
	agent.start();
	// The demo's llava-next-34b crash-loops: its jobs always wait, so its workers are read.
	await waitFor(() => Object.keys(agent.store.getState().workers.byEndpoint).length > 0, 20_000);
}, 40_000);

afterAll(async () => {
	await Promise.all(clients.map(async client => client.close()));
	await server.close();
	await agent.close();
	await sim.close();
});

const workerReads = async () =>
	Object.values(await simStats(sim)).reduce((sum, operations) => sum + (operations['GET /serverless/{id}/workers']?.requests ?? 0), 0);

const window = async () => {
	const before = await workerReads();
	await new Promise(resolve => setTimeout(resolve, 4000));
	return (await workerReads()) - before;
};

test("dashboards fed by the agent leave the waiting endpoints' workers to it: four of them add no reads to the agent's", async () => {
	for (let index = 0; index < 4; index++) {
		clients.push(await engineFor(sim, {agent: true, cadence: clientCadence, history: {disabled: true}}));
	}

	for (const client of clients) {
		client.start();
	}

	await waitFor(() => clients.every(client => client.store.getState().via === 'agent'), 20_000);
	// What a client sent before it attached has come back.
	await new Promise(resolve => setTimeout(resolve, 1000));
	const waiting = Object.keys(agent.store.getState().workers.byEndpoint).length;
	expect(waiting).toBeGreaterThan(0);
	// Four clients reading every waiting endpoint's workers each half-second would be some 30 reads an endpoint in 4 s; the
	// agent reads an endpoint once a minute (one that starts waiting meanwhile, at once).
	expect(await window()).toBeLessThanOrEqual(waiting + 3);
}, 60_000);

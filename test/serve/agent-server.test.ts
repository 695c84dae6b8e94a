import {mkdtempSync, statSync} from 'node:fs';
import {createConnection} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {agentSecret} from '../../source/api/agent-handshake.js';
import {agentSocketPath} from '../../source/api/agent-protocol.js';
import {parseAlertRules} from '../../source/config/alert-rules.js';
import type {Engine} from '../../source/engine/create-engine.js';
import {defaultCadence} from '../../source/poll/cadence.js';
import {serveAgent, type AgentServer} from '../../source/serve/agent-server.js';
import {engineFor, simStats, type SimStats} from '../helpers/engine.js';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';
import {startWebhookReceiver} from '../helpers/webhook-receiver.js';
import {rawAgentClient} from '../helpers/agent-wire.js';

const key = 'rpa_AGENTSERVERSECRET000011112222333';
const directory = mkdtempSync(join(tmpdir(), 'podtop-agent-'));
let sim: TestSim;
let agent: Engine;
let server: AgentServer;
const log: string[] = [];
// Health polled four times a second: a few seconds give a count with little jitter.
const fast = {...defaultCadence, healthMs: 250, healthHiddenMs: 250, healthStalestMs: 250};
const podCount = 1500;
const budget = {share: 1, healthPerWindow: 1000};

beforeAll(async () => {
	process.env.XDG_RUNTIME_DIR = directory;
	sim = await startTestSim({apiKey: key, podCount, graphqlRate: 1000});
	// The agent's socket under load (1,500 pods each poll): GraphQL's pacing, as these figures were made for.
	agent = await engineFor(sim, {allVisible: true, poll: ['endpoints', 'pods', 'gpus'], cadence: fast, budget, managementApi: 'graphql'});
	server = await serveAgent({
		store: agent.store,
		socketPath: agent.agentLink!.socketPath,
		secret: agent.agentLink!.secret,
		drainTimeoutMs: 1000,
		log: line => log.push(line),
	});
	agent.start();
	await waitFor(
		() => agent.store.getState().pods.order.length === podCount && agent.store.getState().endpoints.byId[agent.store.getState().endpoints.order[0]!]?.health,
	);
}, 30_000);

afterAll(async () => {
	await server.close();
	await agent.close();
	await sim.close();
});

/** A client speaking the protocol by hand: a hello and the proof, then every line read as JSON. */
const rawClient = (secret: string, options: {read?: boolean} = {}) => rawAgentClient(server.socketPath, secret, options);

const accountRequests = (stats: SimStats) => Object.values(stats).reduce((sum, operations) => sum + (operations.health?.requests ?? 0), 0);

describe('podtop agent: the socket', () => {
	test('is private to its owner: the folder 0700, the socket 0600', () => {
		expect(statSync(directory + '/podtop').mode & 0o777).toBe(0o700);
		expect(statSync(server.socketPath).mode & 0o777).toBe(0o600);
		expect(server.socketPath).toBe(agentSocketPath({apiUrl: `${sim.url}/v2`, graphqlUrl: `${sim.url}/graphql`, apiKey: key}));
		expect(server.socketPath).not.toContain(key);
	});

	test('a client of the account gets the whole picture, then the changes as they happen', async () => {
		const client = rawClient(agentSecret(key));
		const snapshot = await waitFor(() => client.lines.find(line => line.type === 'snapshot'));
		expect(snapshot.account.pods.order).toHaveLength(podCount);
		const [endpointId] = snapshot.account.endpoints.order as string[];
		expect(snapshot.account.endpoints.byId[endpointId!].health.jobs).toEqual(expect.objectContaining({inQueue: expect.any(Number)}));
		expect(JSON.stringify(snapshot)).not.toContain(key);

		const before = snapshot.account.endpoints.byId[endpointId!].health.jobs.inQueue as number;
		await sim.run(endpointId!, {prompt: 'queued while the agent watches'}, {policy: {executionTimeout: 600_000}});
		const change = await waitFor(() =>
			client.lines.find(line => line.type === 'health' && line.endpointId === endpointId && line.health.jobs.inQueue + line.health.jobs.inProgress > before),
		);
		expect(change.healthAt).toEqual(expect.any(Number));
		await waitFor(() => client.lines.some(line => line.type === 'tick' && line.connection.graphql.lastSuccessAt));
		client.socket.destroy();
	});

	test('another account, or a client that does not say hello, is refused', async () => {
		const stranger = rawClient(agentSecret('rpa_SOMEONEELSE'));
		await stranger.closed;
		expect(stranger.lines).toEqual([{type: 'refused', reason: 'another account'}]);

		const mute = createConnection(server.socketPath);
		mute.on('error', () => undefined);
		const started = Date.now();
		await new Promise(resolve => mute.once('close', resolve));
		expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
		expect(log.some(line => line.includes('refused: another account'))).toBe(true);
	});

	test('a client that stops reading is dropped; the agent does not buffer for it, and others carry on', async () => {
		const attached = () => log.filter(line => line.includes(' attached (')).length;
		const before = attached();
		const reader = rawClient(agentSecret(key));
		await waitFor(() => attached() === before + 1);
		const stuck = rawClient(agentSecret(key), {read: false});
		await waitFor(() => attached() === before + 2);
		// The agent's own engine may hold a client of its own (it reads history through the socket), so the stuck one is found by its number.
		const stuckNumber = /client (\d+) attached/.exec(log.findLast(line => line.includes(' attached ('))!)![1];
		const count = server.clientCount();
		// A paused socket never reads its end either: what tells is the agent's log and its count.
		await waitFor(() => log.some(line => line.startsWith(`client ${stuckNumber} dropped: nothing read for`)), 10_000);
		expect(server.clientCount()).toBe(count - 1);
		expect(reader.socket.destroyed).toBe(false);
		const ticks = reader.lines.filter(line => line.type === 'tick').length;
		await waitFor(() => reader.lines.filter(line => line.type === 'tick').length > ticks + 1);
		reader.socket.destroy();
		stuck.socket.destroy();
	}, 20_000);

	test("an attached client shows its own rules' alerts but leaves posting to the agent: one poller, one poster", async () => {
		const receiver = await startWebhookReceiver();
		const rules = parseAlertRules(`[webhook]\nurl = "${receiver.url}"\n\n[[rule]]\nname = "stock"\nkind = "gpu-stock"\n`, 'alerts.toml');
		const client = await engineFor(sim, {agent: true, alerts: {rules}});
		try {
			client.start();
			await waitFor(() => client.store.getState().via === 'agent' && client.store.getState().alerts.length > 0);
			await new Promise(resolve => setTimeout(resolve, 1500));
			expect(receiver.deliveries).toEqual([]);
		} finally {
			await client.close();
		}

		// The same rules in a client that polls by itself: it posts.
		const direct = await engineFor(sim, {agent: false, alerts: {rules}});
		try {
			direct.start();
			await waitFor(() => receiver.deliveries.length > 0);
			expect(receiver.deliveries[0]!.body.podtop).toMatchObject({state: 'firing', rule: 'stock'});
		} finally {
			await direct.close();
			await receiver.close();
		}
	});

	test('five attached engines cost the service nothing more than the agent alone', async () => {
		const window = async () => {
			const before = accountRequests(await simStats(sim));
			// Long enough to hold each of the agent's cadences more than once: a 3 s window caught one pods poll or none.
			await new Promise(resolve => setTimeout(resolve, 6000));
			return accountRequests(await simStats(sim)) - before;
		};

		const alone = await window();
		const clients = await Promise.all(Array.from({length: 5}, async () => engineFor(sim, {agent: true, cadence: fast, budget})));
		for (const client of clients) {
			client.start();
		}

		await waitFor(() => clients.every(client => client.store.getState().via === 'agent'));
		expect(clients[0]!.store.getState().pods.order).toHaveLength(podCount);
		const withClients = await window();
		await Promise.all(clients.map(async client => client.close()));
		// Each direct client would add as much as the agent itself does: five would be six times the count.
		expect(alone).toBeGreaterThan(20);
		expect(withClients).toBeLessThan(alone * 1.5);
	}, 45_000);
});

import {mkdtempSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {agentSecret} from '../../source/api/agent-handshake.js';
import type {Engine} from '../../source/engine/create-engine.js';
import type {LogSession} from '../../source/model/log-session.js';
import {serveAgent, type AgentServer} from '../../source/serve/agent-server.js';
import {createLogHub, type LogHub} from '../../source/serve/log-hub.js';
import {rawAgentClient} from '../helpers/agent-wire.js';
import {engineFor, simStats} from '../helpers/engine.js';
import {waitFor} from '../helpers/sim-client.js';
import {closeRestSims, startRestSim, type RestSim} from '../sim/rest/rest-client.js';

const key = 'rpa_AGENTLOGS000011112222333344';
const directory = mkdtempSync(join(tmpdir(), 'podtop-agent-logs-'));
let sim: RestSim;
let agent: Engine;
let hub: LogHub;
let server: AgentServer;
const log: string[] = [];

beforeAll(async () => {
	process.env.XDG_RUNTIME_DIR = directory;
	sim = await startRestSim({apiKey: key, speed: 20, restQuota: {minute: 10_000, hour: 100_000, day: 1_000_000}});
	agent = await engineFor(sim, {poll: []});
	hub = createLogHub(agent.openLogs!);
	server = await serveAgent({
		store: agent.store,
		socketPath: agent.agentLink!.socketPath,
		secret: agent.agentLink!.secret,
		drainTimeoutMs: 1000,
		maxBufferBytes: 64 * 1024,
		log: line => log.push(line),
		logs: hub,
	});
}, 30_000);

afterAll(async () => {
	await server.close();
	await agent.close();
	await closeRestSims();
});

/** The longest-lived worker of an endpoint that keeps its workers (the demo's crash-looping one replaces them). */
async function steadyWorker() {
	const endpoint = sim.endpoints.find(each => each.name === 'llama-3-8b-instruct-vllm')!;
	const workers = (await sim.rest('GET', `/v2/serverless/${endpoint.id}/workers`)).body.workers as Array<{id: string; uptimeSeconds: number | null}>;
	const worker = workers.toSorted((a, b) => (b.uptimeSeconds ?? 0) - (a.uptimeSeconds ?? 0))[0]!;
	return {endpointId: endpoint.id, workerId: worker.id};
}

const logStreams = async (endpointId: string) => (await simStats(sim))[endpointId]?.logStream?.requests ?? 0;

describe('podtop agent shares log streams', () => {
	test('20 clients following one worker through the agent: the service sees one stream, each client every line once, in order', async () => {
		const {endpointId, workerId} = await steadyWorker();
		const before = await logStreams(endpointId);
		const clients: Engine[] = [];
		const sessions: LogSession[] = [];
		try {
			for (let index = 0; index < 20; index++) {
				const client = await engineFor(sim, {agent: true, poll: []});
				clients.push(client);
				sessions.push(client.openLogs!({kind: 'worker', endpointId, workerId}, {tail: 5}));
			}

			// Every client live, with its tail.
			await waitFor(() => sessions.every(session => session.snapshot().streams[0]?.state === 'live' && session.snapshot().lines.length >= 5), 30_000);
			expect(hub.upstreamCount()).toBe(1);
			expect(await logStreams(endpointId)).toBe(before + 1);
			for (const session of sessions) {
				const ids = session.snapshot().lines.map(line => line.id);
				expect(new Set(ids).size).toBe(ids.length);
				expect(ids).toEqual(ids.toSorted());
			}
		} finally {
			for (const client of clients) {
				await client.close();
			}
		}

		// The last client gone, the agent lets go of the stream.
		await waitFor(() => hub.upstreamCount() === 0);
	}, 60_000);

	test('a client that resumes with Last-Event-ID gets the lines after it from the agent: none lost, none twice', async () => {
		const {endpointId, workerId} = await steadyWorker();
		const holder = rawAgentClient(server.socketPath, agentSecret(key), {feed: false});
		const resumer = rawAgentClient(server.socketPath, agentSecret(key), {feed: false});
		try {
			const target = {kind: 'worker', endpointId, workerId};
			holder.write(`${JSON.stringify({type: 'logs', id: 1, op: 'open', target, query: {tail: 20}})}\n`);
			const linesOf = (lines: any[], id: number) =>
				lines.filter(message => message.type === 'log' && message.id === id && message.line).map(message => message.line.id as string);
			await waitFor(() => linesOf(holder.lines, 1).length >= 10, 30_000);
			const held = linesOf(holder.lines, 1);
			const resumeAfter = held[4]!;
			resumer.write(`${JSON.stringify({type: 'logs', id: 7, op: 'open', target, query: {lastEventId: resumeAfter}})}\n`);
			await waitFor(() => linesOf(resumer.lines, 7).length > 0);
			const resumed = linesOf(resumer.lines, 7);
			// Exactly the lines after the one it had, as the holder got them.
			expect(resumed.slice(0, held.length - 5)).toEqual(held.slice(5, resumed.length + 5));
			expect(resumed[0]).toBe(held[5]);
			expect(hub.upstreamCount()).toBe(1);
		} finally {
			holder.socket.destroy();
			resumer.socket.destroy();
		}

		await waitFor(() => hub.upstreamCount() === 0);
	}, 60_000);

	test('a client that stops reading is dropped, and the others keep their stream', async () => {
		const {endpointId, workerId} = await steadyWorker();
		const target = {kind: 'worker', endpointId, workerId};
		const reader = rawAgentClient(server.socketPath, agentSecret(key), {feed: false});
		const stuck = rawAgentClient(server.socketPath, agentSecret(key), {feed: false, read: false});
		try {
			reader.write(`${JSON.stringify({type: 'logs', id: 1, op: 'open', target, query: {tail: 5000}})}\n`);
			await waitFor(() => reader.lines.length > 0);
			// The same log 250 times over: its backlog each time (~500 kB), more than the socket and the agent's bound hold for a client that reads nothing.
			for (let id = 1; id <= 250; id++) {
				stuck.write(`${JSON.stringify({type: 'logs', id, op: 'open', target, query: {tail: 5000}})}\n`);
			}

			// Dropped (its paused socket hears no end): the agent says so, and holds none of its follows.
			await waitFor(() => log.some(line => /client \d+ dropped: (nothing read|\d+ KB unread)/.test(line)));
			await waitFor(() => server.clientCount() === 1);
			expect(hub.upstreamCount()).toBe(1);
			// The reader still hears the agent (a tick a second while it follows a log).
			const count = reader.lines.length;
			await waitFor(() => reader.lines.length > count, 30_000);
			expect(reader.isClosed()).toBe(false);
		} finally {
			reader.socket.destroy();
			stuck.socket.destroy();
		}
	}, 60_000);

	test("a crash-looping worker's last lines outlive it: a client that asks for the gone worker gets what the agent kept, then gone", async () => {
		const endpoint = sim.endpoints.find(each => each.name === 'llava-next-34b')!;
		const workers = (await sim.rest('GET', `/v2/serverless/${endpoint.id}/workers`)).body.workers as Array<{id: string}>;
		const target = {kind: 'worker', endpointId: endpoint.id, workerId: workers[0]!.id};
		const follower = rawAgentClient(server.socketPath, agentSecret(key), {feed: false});
		const open = (id: number) => `${JSON.stringify({type: 'logs', id, op: 'open', target, query: {tail: 200}})}\n`;
		try {
			follower.write(open(1));
			// It crashes and is replaced: the service ends its stream as gone.
			const end = await waitFor(() => follower.lines.find(line => line.type === 'log' && line.end), 60_000);
			expect(end.end).toBe('gone');
			const seen = follower.lines.filter(line => line.type === 'log' && line.line).map(line => line.line.id as string);
			expect(seen.length).toBeGreaterThan(0);
			expect(hub.goneWorkers(endpoint.id)).toContain(target.workerId);

			// Asked again (as `podtop logs worker <endpoint> <gone worker>` does): the kept lines, then gone.
			const client = await engineFor(sim, {agent: true, poll: []});
			try {
				const session = client.openLogs!(target as {kind: 'worker'; endpointId: string; workerId: string}, {tail: 200});
				await waitFor(() => session.snapshot().streams[0]?.state === 'gone');
				expect(session.snapshot().lines.map(line => line.id)).toEqual(seen.slice(-200));
			} finally {
				await client.close();
			}
		} finally {
			follower.socket.destroy();
		}
	}, 90_000);
});

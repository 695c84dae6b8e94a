import {chownSync, mkdirSync, mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import type {Socket} from 'node:net';
import {afterEach, beforeEach, describe, expect, test} from 'vitest';
import {agentSecret} from '../../source/api/agent-handshake.js';
import {agentDirectory, agentSocketPath} from '../../source/api/agent-protocol.js';
import {createAgentFeed, type AgentFeed} from '../../source/poll/agent-feed.js';
import {serveAgent} from '../../source/serve/agent-server.js';
import {accountSnapshot} from '../../source/store/account-snapshot.js';
import {createPodtopStore} from '../../source/store/create-store.js';
import {startFakeAgent, type FakeAgent} from '../helpers/agent-wire.js';
import {waitFor} from '../helpers/sim-client.js';

/*
Another local user plays the agent: they made the victim's agent folder first (after a reboot, or
while the agent was down) and listen there. Tests run as root: "another user" is uid 65534.
*/
const key = 'rpa_IMPOSTORVICTIM0000111122223333';
const service = {apiUrl: 'http://127.0.0.1:9/v2', graphqlUrl: 'http://127.0.0.1:9/graphql', apiKey: key};
const nobody = 65_534;
const runtime = mkdtempSync(join(tmpdir(), 'podtop-impostor-'));
let socketPath: string;
let fake: FakeAgent | undefined;
let feed: AgentFeed | undefined;

/** The attacker's picture of the victim's fleet: one endpoint named by them. */
function fakeSnapshot() {
	const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'example', keyFingerprint: '••••3333'});
	writes.setEndpoints(
		[
			{
				id: 'evil',
				name: 'attacker-endpoint',
				workersMin: 0,
				workersMax: 1,
				gpuIds: 'AMPERE_16',
				idleTimeout: 5,
				templateId: 't',
				scalerType: 'QUEUE_DELAY',
				scalerValue: 4,
			},
		] as never,
		Date.now(),
	);
	return accountSnapshot(store.getState());
}

/** Answers every hello as protocol 1 did: the snapshot at once, for whatever proof came. */
const oldStyleImpostor = (socket: Socket, heard: string) => {
	if (heard.includes('\n') && !socket.writableEnded && !(socket as {answered?: boolean}).answered) {
		(socket as {answered?: boolean}).answered = true;
		socket.write(`${JSON.stringify({type: 'snapshot', protocol: 1, features: ['record'], account: fakeSnapshot()})}\n`);
	}
};

function victimFeed() {
	const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'example', keyFingerprint: '••••3333'});
	const warnings: string[] = [];
	feed = createAgentFeed({
		socketPaths: [socketPath],
		secret: agentSecret(key),
		store,
		writes,
		retryMs: 50,
		onAttached() {},
		onWarning(line) {
			warnings.push(line);
		},
	});
	feed.start();
	return {store, warnings};
}

beforeEach(() => {
	process.env.XDG_RUNTIME_DIR = runtime;
	rmSync(agentDirectory(), {recursive: true, force: true});
	mkdirSync(agentDirectory(), {mode: 0o700});
	socketPath = agentSocketPath(service);
});

afterEach(async () => {
	feed?.stop();
	feed = undefined;
	await fake?.close();
	fake = undefined;
});

describe("a fake agent in the victim's agent folder", () => {
	test.each(['folder', 'socket'] as const)('a %s of another user: the client connects to nothing, says why, and polls on its own', async owned => {
		fake = await startFakeAgent(socketPath, oldStyleImpostor);
		chownSync(owned === 'folder' ? agentDirectory() : socketPath, nobody, nobody);
		const {store, warnings} = victimFeed();
		await waitFor(() => warnings.length > 0);
		expect(warnings).toEqual([expect.stringMatching(/belongs to user 65534.*podtop trusts no agent there; polling on its own$/)]);
		expect(fake.heard).toEqual([]);
		expect(store.getState().via).toBe('direct');
	});

	test('a fake without the key in a place that passes the checks is found out: not adopted, and nothing it heard opens the real agent', async () => {
		fake = await startFakeAgent(socketPath, (socket, heard) => {
			// It plays protocol 1 to a client of protocol 1, and protocol 2 with a challenge it cannot prove to a client of protocol 2.
			if (heard.includes('"account"')) {
				oldStyleImpostor(socket, heard);
			} else if (heard.includes('"nonce"') && !socket.writableEnded) {
				socket.write(`${JSON.stringify({type: 'challenge', protocol: 2, nonce: 'a'.repeat(64), proof: 'b'.repeat(64)})}\n`);
			}
		});
		const {store, warnings} = victimFeed();
		await waitFor(() => fake!.heard.length > 0 && warnings.length > 0);
		expect(store.getState().via).toBe('direct');
		expect(store.getState().endpoints.order).not.toContain('evil');
		expect(warnings[0]).toMatch(/did not prove it holds this account's key: not trusted; polling on its own$/);

		// The victim's real agent comes back elsewhere: what the fake heard is replayed to it, and refused.
		const real = join(runtime, 'real.sock');
		const {store: agentStore} = createPodtopStore({mode: 'live', apiHost: 'example', keyFingerprint: '••••3333'});
		const log: string[] = [];
		const server = await serveAgent({store: agentStore, socketPath: real, secret: agentSecret(key), log: line => log.push(line)});
		try {
			const {createConnection} = await import('node:net');
			const replay = createConnection(real);
			let answer = '';
			replay.setEncoding('utf8');
			replay.on('data', (chunk: string) => {
				answer += chunk;
			});
			replay.write(fake.heard[0]!);
			replay.write(`${JSON.stringify({type: 'proof', proof: 'c'.repeat(64)})}\n`);
			await new Promise(resolve => replay.once('close', resolve));
			expect(answer).not.toContain('"snapshot"');
			expect(server.clientCount()).toBe(0);
			expect(log.join('\n')).toMatch(/refused/);
		} finally {
			await server.close();
		}
	});

	test('a fake that sends a line without end (150 MB meant to exhaust the heap) is left after a few KB, with a sentence', async () => {
		let sent = 0;
		const chunk = 'x'.repeat(64 * 1024);
		fake = await startFakeAgent(socketPath, socket => {
			const flood = () => {
				while (!socket.destroyed && sent < 150 * 1024 * 1024 && socket.write(chunk)) {
					sent += chunk.length;
				}
			};

			socket.on('drain', flood);
			flood();
		});
		const {store, warnings} = victimFeed();
		await waitFor(() => warnings.length > 0);
		expect(warnings[0]).toMatch(/sent a line over 4 KB before proving it holds this account's key: not an agent of this podtop; polling on its own$/);
		await waitFor(() => fake!.connections[0]?.destroyed);
		expect(sent).toBeLessThan(150 * 1024 * 1024);
		expect(store.getState().via).toBe('direct');
	});

	test('an agent of the older protocol is said to be one, and the client polls on its own', async () => {
		fake = await startFakeAgent(socketPath, socket => {
			socket.end(`${JSON.stringify({type: 'refused', reason: 'protocol 1 only'})}\n`);
		});
		const {store, warnings} = victimFeed();
		await waitFor(() => warnings.length > 0);
		expect(warnings[0]).toBe(
			`the agent on ${socketPath} speaks an older protocol (1): restart \`podtop agent\` with this podtop's version; polling on its own`,
		);
		expect(store.getState().via).toBe('direct');
	});
});

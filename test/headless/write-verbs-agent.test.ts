import {chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, beforeAll, expect, test} from 'vitest';
import {agentSecret} from '../../source/api/agent-handshake.js';
import {agentSocketPath} from '../../source/api/agent-protocol.js';
import {handshakeProof, startFakeAgent, type FakeAgent} from '../helpers/agent-wire.js';
import {cliEnv, runCli} from '../helpers/run-cli.js';
import {startTestSim, type TestSim} from '../helpers/sim-client.js';

/*
A write verb hands its write to a `--group` agent of another user (uid 65534 here, tests run as
root in group 0). This one holds the key, takes the write, and never closes its end.
*/
const key = 'rpa_WRITEVERBAGENT000011112222333344';
const shared = mkdtempSync('/var/tmp/podtop-write-verbs-');
chmodSync(shared, 0o711);
const runtime = mkdtempSync(join(shared, 'runtime-'));
const state = mkdtempSync(join(shared, 'state-'));
const folder = join(shared, 'podtop-group-0');
let sim: TestSim;
let fake: FakeAgent;

beforeAll(async () => {
	sim = await startTestSim({apiKey: key, endpoints: [{id: 'echo', workersMin: 1, workersMax: 1, flashBoot: true}]});
	const service = {apiUrl: `${sim.url}/v2`, graphqlUrl: `${sim.url}/graphql`, apiKey: key};
	mkdirSync(folder, {mode: 0o710});
	chmodSync(folder, 0o710);
	const socketPath = agentSocketPath(service, folder);
	const secret = agentSecret(key);
	const nonce = 'd'.repeat(64);
	fake = await startFakeAgent(
		socketPath,
		(socket, heard) => {
			const [first, second] = heard.split('\n');
			const said = (socket as {said?: number}).said ?? 0;
			const hello = JSON.parse(first ?? '{}') as {protocol?: number; nonce?: string; account?: string};
			// Protocol 1 (before the fix): attached at once. Protocol 2: the handshake, with the key.
			if (said === 0 && hello.account !== undefined) {
				socket.write(`${JSON.stringify({type: 'attached', protocol: 1, features: ['history', 'record']})}\n`);
				(socket as {said?: number}).said = 2;
			} else if (said === 0 && hello.nonce !== undefined) {
				socket.write(`${JSON.stringify({type: 'challenge', protocol: 2, nonce, proof: handshakeProof(secret, 'agent', nonce, hello.nonce)})}\n`);
				(socket as {said?: number}).said = 1;
			} else if (said === 1 && second !== undefined && heard.split('\n').length > 2) {
				socket.write(`${JSON.stringify({type: 'attached', protocol: 2, features: ['history', 'record']})}\n`);
				(socket as {said?: number}).said = 2;
			}
		},
		{allowHalfOpen: true},
	);
	chownSync(socketPath, 65_534, 0);
	chownSync(folder, 65_534, 0);
});

afterAll(async () => {
	await fake?.close();
	await sim?.close();
	rmSync(shared, {recursive: true, force: true});
});

const env = () => cliEnv({RUNPOD_API_KEY: key, TMPDIR: shared, XDG_RUNTIME_DIR: runtime, XDG_STATE_HOME: state});
const urls = () => ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`];

test('a write verb hands its write to an agent that never closes, and still exits with its own status', async () => {
	const id = await sim.run('echo', {delay_ms: 60_000});
	const before = fake.heard.length;
	const {code, stderr} = await runCli(['cancel', 'echo', id, ...urls()], env(), 20_000);
	expect(stderr).toBe('');
	expect(code).toBe(0);
	// It did hand the write over: the agent heard a record line.
	expect(fake.heard.slice(before).some(heard => heard.includes('"type":"record"'))).toBe(true);
});

test('--no-agent: a write verb asks no agent anything', async () => {
	const id = await sim.run('echo', {delay_ms: 60_000});
	const before = fake.heard.length;
	const {code, stderr} = await runCli(['cancel', 'echo', id, '--no-agent', ...urls()], env(), 20_000);
	expect(stderr).toBe('');
	expect(code).toBe(0);
	expect(fake.heard.length).toBe(before);
});

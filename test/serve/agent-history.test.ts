import {spawn, spawnSync, type ChildProcessWithoutNullStreams} from 'node:child_process';
import {chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {agentSocketPath, groupAgentDirectory, maxRequestBytes, maxRequestsInFlight} from '../../source/api/agent-protocol.js';
import type {Engine} from '../../source/engine/create-engine.js';
import {historyFileName, openHistoryForReading} from '../../source/history/history-file.js';
import type {HistoryReader} from '../../source/history/history-types.js';
import {createSqliteReader} from '../../source/history/sqlite-reader.js';
import {agentSecret} from '../../source/api/agent-handshake.js';
import {createAgentConnection} from '../../source/poll/agent-connection.js';
import {rawAgentClient} from '../helpers/agent-wire.js';
import {engineFor} from '../helpers/engine.js';
import {gqlData} from '../helpers/graphql-client.js';
import {cliEnv, cliPath, collect} from '../helpers/run-cli.js';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';

const key = 'rpa_AGENTHISTORYSECRET0001111222233';
const nobody = 65_534;
const helperScript = fileURLToPath(new URL('../helpers/history-client.mjs', import.meta.url));
/**
Root, and the checkout readable by another user: the member runs this checkout's code as nobody (a
checkout under a folder only root may enter, as /tmp is here, cannot be: those tests are skipped).
*/
const canSwitchUser =
	process.getuid?.() === 0 && spawnSync(process.execPath, ['-e', `require('node:fs').accessSync(${JSON.stringify(helperScript)})`], {uid: 65_534}).status === 0;
// The group folder lives under $TMPDIR: a folder everyone may enter (the default /tmp here is root's only).
const shared = mkdtempSync('/var/tmp/podtop-agent-history-');
chmodSync(shared, 0o711);
const agentState = mkdtempSync(join(tmpdir(), 'podtop-agent-state-'));
const runtime = mkdtempSync(join(tmpdir(), 'podtop-agent-runtime-'));
const gid = process.getgid!();
const group = readFileSync('/etc/group', 'utf8')
	.split('\n')
	.map(line => line.split(':'))
	.find(fields => fields[2] === String(gid))![0]!;

let sim: TestSim;
let service: {apiUrl: string; graphqlUrl: string; apiKey: string};
let agent: ChildProcessWithoutNullStreams & {log: () => string};
let file: string;
let own: HistoryReader;
let socketPath: string;

/** `podtop agent --group`, recording into a state folder only its user can read. */
async function startAgent(ready = 'recording history in'): Promise<typeof agent> {
	const env = cliEnv({RUNPOD_API_KEY: key, XDG_RUNTIME_DIR: runtime, XDG_STATE_HOME: agentState, TMPDIR: shared});
	const child = spawn(process.execPath, [cliPath, 'agent', '--group', group, '--api-url', service.apiUrl, '--graphql-url', service.graphqlUrl], {env});
	let log = '';
	child.stderr.setEncoding('utf8');
	child.stderr.on('data', (text: string) => {
		log += text;
	});
	await waitFor(() => log.includes(ready), 15_000);
	return Object.assign(child, {log: () => log});
}

/** Speaks the protocol by hand: a hello (with or without the feed) and the proof, then every line read as JSON. */
const rawClient = (secret: string, options: {feed?: boolean} = {}) => rawAgentClient(socketPath, secret, options);

/** A value as it comes over the socket (JSON: undefined fields dropped), to compare with what crossed it. */
// eslint-disable-next-line unicorn/prefer-structured-clone -- not a copy: what JSON keeps of it
const json = (value: unknown) => JSON.parse(JSON.stringify(value));
const firstEndpoint = async () => (await own.things('endpoint')).find(thing => thing.name.includes('llama'))!.key;

beforeAll(async () => {
	sim = await startTestSim({apiKey: key, load: true, speed: 5});
	service = {apiUrl: `${sim.url}/v2`, graphqlUrl: `${sim.url}/graphql`, apiKey: key};
	// This process looks for the group's socket where the agent made it.
	process.env.TMPDIR = shared;
	agent = await startAgent();
	socketPath = agentSocketPath(service, groupAgentDirectory(gid));
	file = join(agentState, 'podtop', 'history', historyFileName(service));
	own = createSqliteReader({db: openHistoryForReading(file)!, file});
	// A few polls recorded, health among them.
	await waitFor(async () => {
		const endpoints = await own.things('endpoint');
		const series = endpoints.length > 0 ? await own.series({kind: 'endpoint', keys: endpoints.map(each => each.key), from: 0, to: Date.now()}) : [];
		return series.some(each => each.points.length >= 3);
	}, 30_000);
	// Something on the timeline: a pod stopped at the service, seen by the agent's next poll.
	const moment = (await own.stateAt(Date.now()))!;
	const running = moment.pods.order.find(id => moment.pods.byId[id]!.record.desiredStatus === 'RUNNING')!;
	await gqlData(sim, `mutation { podStop(input: {podId: "${running}"}) { id } }`);
	await waitFor(async () => (await own.events(0, Date.now())).some(event => event.type === 'status' && event.subject === running), 20_000);
}, 60_000);

afterAll(async () => {
	await own?.close();
	agent?.kill('SIGTERM');
	await new Promise(resolve => agent?.once('close', resolve));
	await sim?.close();
	for (const folder of [shared, agentState, runtime]) {
		rmSync(folder, {recursive: true, force: true});
	}
});

describe('history from the agent, over its socket', () => {
	test.skipIf(!canSwitchUser)(
		"another user (a member of the agent's group) cannot read the agent's file, and gets the same series, moment and events over the socket",
		async () => {
			const endpointId = await firstEndpoint();
			const span = (await own.span())!;
			const [from, to, at] = [span.from, span.to, span.to - 1000];
			const home = mkdtempSync(join(shared, 'member-'));
			chownSync(home, nobody, gid);
			const engineModule = fileURLToPath(new URL('../../dist/engine/create-engine.js', import.meta.url));
			const child = spawn(
				process.execPath,
				[fileURLToPath(new URL('../helpers/history-client.mjs', import.meta.url)), engineModule, JSON.stringify({service, file, endpointId, from, to, at})],
				{uid: nobody, gid, env: cliEnv({XDG_RUNTIME_DIR: home, XDG_STATE_HOME: home, TMPDIR: shared})},
			);
			const {code, stdout, stderr} = await collect(child, 30_000);
			expect(stderr).toBe('');
			expect(code).toBe(0);
			const member = JSON.parse(stdout);
			expect(member.uid).toBe(nobody);
			expect(member.fileError).toBe('EACCES');
			expect(member.status).toEqual({state: 'remote', source: 'agent'});
			expect(member.kind).toBe('agent');
			expect(member.error).toBeUndefined();
			const series = await own.series({kind: 'endpoint', keys: [endpointId], from, to});
			expect(series[0]!.points.length).toBeGreaterThan(1);
			expect(member.series).toEqual(json(series));
			const moment = await own.stateAt(at);
			expect(moment!.endpoints.order.length).toBeGreaterThan(0);
			expect(member.stateAt).toEqual(json(moment));
			const events = await own.events(from, to);
			expect(events.some(event => event.type === 'status')).toBe(true);
			expect(member.events).toEqual(json(events));
			expect(member.info.source).toBe(`the agent on ${socketPath} (${file})`);
			expect(stdout).not.toContain(key);
		},
		60_000,
	);

	test('a client of another account is refused, for history as for the feed', async () => {
		const stranger = rawClient(agentSecret('rpa_SOMEONEELSE000000000000000000'), {feed: false});
		await stranger.closed;
		expect(stranger.lines).toEqual([{type: 'refused', reason: 'another account'}]);
		const connection = createAgentConnection({socketPath, secret: agentSecret('rpa_SOMEONEELSE000000000000000000')});
		// Its key is not the agent's: the agent's proof fails first, and the client says so.
		await expect(connection.request('span', [], 5000)).rejects.toThrow(`the agent on ${socketPath} did not prove it holds this account's key: not trusted`);
		connection.close();
	});

	test('a malformed, oversized or flooding client is dropped, and nobody else; bad arguments get an error', async () => {
		const secret = agentSecret(key);
		const watcher = rawClient(secret);
		const asker = rawClient(secret, {feed: false});
		await waitFor(() => watcher.lines.some(line => line.type === 'snapshot') && asker.lines.some(line => line.type === 'attached'));
		expect(watcher.lines[0].features).toEqual(['history', 'record', 'bills', 'logs', 'workers', 'balance']);

		const garbled = rawClient(secret, {feed: false});
		garbled.write('{"type":"history","id":1,"method":"span","args":[]\n');
		await garbled.closed;
		const huge = rawClient(secret, {feed: false});
		huge.write(`{"type":"history","id":1,"method":"series","args":[{"keys":["${'x'.repeat(maxRequestBytes)}"]}]}\n`);
		await huge.closed;
		const flood = rawClient(secret, {feed: false});
		flood.write(
			Array.from({length: maxRequestsInFlight + 4}, (_, id) => `${JSON.stringify({type: 'history', id, method: 'stateAt', args: [Date.now()]})}\n`).join(''),
		);
		await flood.closed;
		const noId = rawClient(secret, {feed: false});
		noId.write(`${JSON.stringify({type: 'history', method: 'span', args: []})}\n`);
		await noId.closed;
		await waitFor(() =>
			['a line that is not', 'a line over', 'history requests unanswered', 'without a whole-number id'].every(text => agent.log().includes(text)),
		);

		// The others carry on: ticks still come, a request is answered, a bad one gets a sentence.
		const ticks = watcher.lines.filter(line => line.type === 'tick').length;
		await waitFor(() => watcher.lines.filter(line => line.type === 'tick').length > ticks);
		asker.write(`${JSON.stringify({type: 'history', id: 7, method: 'span', args: []})}\n`);
		asker.write(`${JSON.stringify({type: 'history', id: 8, method: 'series', args: [{kind: 'planet', keys: [], from: 0, to: 1}]})}\n`);
		const now = Date.now();
		asker.write(`${JSON.stringify({type: 'history', id: 9, method: 'events', args: [0, now, 1]})}\n`);
		asker.write(`${JSON.stringify({type: 'history', id: 10, method: 'info', args: [{integrity: true}]})}\n`);
		const span = await waitFor(() => asker.lines.find(line => line.id === 7));
		expect(span.result.from).toBe((await own.span())!.from);
		expect(await waitFor(() => asker.lines.find(line => line.id === 8))).toEqual({
			type: 'history',
			id: 8,
			error: 'bad arguments to history series: kind must be one of endpoint, pod, gpu, account',
		});
		expect((await waitFor(() => asker.lines.find(line => line.id === 9))).result).toEqual(json(await own.events(0, now, 1)));
		// Info, but never the integrity check (it would stall the agent): not checked, said by its absence.
		const info = (await waitFor(() => asker.lines.find(line => line.id === 10))).result;
		expect(info).toMatchObject({kind: 'sqlite', source: file});
		expect(info.integrity).toBeUndefined();
		expect(watcher.isClosed()).toBe(false);
		expect(asker.isClosed()).toBe(false);
		watcher.socket.destroy();
		asker.socket.destroy();
	}, 30_000);
});

describe('attached clients and the agent’s history', () => {
	let client: Engine | undefined;
	const memberHistory = mkdtempSync(join(shared, 'member-history-'));

	afterAll(async () => client?.close());

	test("a dashboard attached to the agent does not record its own: it shows the agent's history (over the socket when it cannot read the file)", async () => {
		process.env.XDG_RUNTIME_DIR = mkdtempSync(join(shared, 'member-runtime-'));
		client = await engineFor(sim, {agent: true, record: true, history: {directory: memberHistory}});
		client.start();
		await waitFor(() => client!.store.getState().via === 'agent', 10_000);
		await waitFor(() => client!.history.status.getState().state === 'remote');
		expect(client.history.status.getState()).toEqual({state: 'remote', source: 'agent'});
		const reader = client.history.reader()!;
		expect(reader.kind).toBe('agent');
		const endpointId = await firstEndpoint();
		const span = (await own.span())!;
		expect(await reader.series({kind: 'endpoint', keys: [endpointId], from: span.from, to: span.to})).toEqual(
			await own.series({kind: 'endpoint', keys: [endpointId], from: span.from, to: span.to}),
		);
		expect(json(await reader.stateAt(span.to))).toEqual(json(await own.stateAt(span.to)));
		expect(await reader.span()).toEqual(expect.objectContaining({from: span.from}));
		// It never recorded: no file of its own.
		expect(readdirSync(memberHistory)).toEqual([]);

		// The same user with the agent's folder reads the agent's file itself.
		const sameUser = await engineFor(sim, {agent: true, record: true, history: {directory: join(agentState, 'podtop', 'history')}});
		try {
			sameUser.start();
			await waitFor(() => sameUser.history.status.getState().state === 'reading', 10_000);
			expect(sameUser.history.status.getState()).toMatchObject({reason: 'the agent records this account', file});
			expect(sameUser.history.reader()!.kind).toBe('sqlite');
		} finally {
			await sameUser.close();
		}
	}, 30_000);

	test("a job tracked by an attached client is in the agent's timeline, each status once when two clients track it", async () => {
		const endpointId = await firstEndpoint();
		const jobId = await sim.run(endpointId, {prompt: 'tracked by a client'});
		const first = await engineFor(sim, {agent: true, history: {disabled: true}});
		const second = await engineFor(sim, {agent: true, history: {disabled: true}});
		try {
			for (const each of [first, second]) {
				each.start();
				await waitFor(() => each.store.getState().via === 'agent', 10_000);
				each.track(endpointId, jobId);
			}

			const jobEvents = async () => (await own.events(0, Date.now() + 60_000)).filter(event => event.type === 'job' && event.data.id === jobId);
			const events = await waitFor(async () => {
				const found = await jobEvents();
				return found.some(event => event.data.status === 'COMPLETED') ? found : undefined;
			}, 40_000);
			expect(events[0]).toMatchObject({kind: 'endpoint', subject: endpointId, data: {id: jobId, source: 'client'}});
			const statuses = events.map(event => event.data.status);
			expect(new Set(statuses).size).toBe(statuses.length);
		} finally {
			await first.close();
			await second.close();
		}
	}, 60_000);

	test.skipIf(!canSwitchUser)(
		"another user's write reaches the agent's timeline as the client's; the same user's comes once, from the audit log",
		async () => {
			const moment = (await own.stateAt(Date.now()))!;
			const [stopped, resumed] = moment.pods.order.filter(id => moment.pods.byId[id]!.record.desiredStatus === 'RUNNING');
			const home = mkdtempSync(join(shared, 'writer-'));
			chownSync(home, nobody, gid);
			const engineModule = fileURLToPath(new URL('../../dist/engine/create-engine.js', import.meta.url));
			const span = (await own.span())!;
			const request = {service, file, endpointId: 'none', from: span.from, to: span.to, at: span.to, write: {id: 'pod.stop', target: {podId: stopped}}};
			const child = spawn(process.execPath, [fileURLToPath(new URL('../helpers/history-client.mjs', import.meta.url)), engineModule, JSON.stringify(request)], {
				uid: nobody,
				gid,
				env: cliEnv({XDG_RUNTIME_DIR: home, XDG_STATE_HOME: home, TMPDIR: shared}),
			});
			const {stdout} = await collect(child, 30_000);
			expect(JSON.parse(stdout).write).toBe('ok');
			const writes = async (podId: string) =>
				(await own.events(0, Date.now() + 60_000)).filter(event => event.type === 'write' && (event.data.target as {podId?: string}).podId === podId);
			const forwarded = await waitFor(async () => {
				const found = await writes(stopped!);
				return found.length > 0 ? found : undefined;
			}, 10_000);
			expect(forwarded).toEqual([
				expect.objectContaining({kind: 'pod', subject: stopped, data: expect.objectContaining({operation: 'pod.stop', outcome: 'ok', source: 'client'})}),
			]);

			// The same user, attached: its audit log is the agent's to read, so nothing is forwarded.
			const auditPath = join(agentState, 'podtop', 'audit.jsonl');
			const writer = await engineFor(sim, {agent: true, auditPath, history: {disabled: true}});
			try {
				writer.start();
				await waitFor(() => writer.store.getState().via === 'agent', 10_000);
				expect((await writer.perform('pod.stop', {podId: resumed!}, undefined)).outcome).toBe('ok');
				const recorded = await waitFor(async () => {
					const found = await writes(resumed!);
					return found.length > 0 ? found : undefined;
				}, 15_000);
				await new Promise(resolve => setTimeout(resolve, 6000));
				expect(await writes(resumed!)).toEqual(recorded);
				expect(recorded).toHaveLength(1);
				expect(recorded[0]!.data.source).toBeUndefined();
			} finally {
				await writer.close();
			}

			expect(existsSync(auditPath)).toBe(true);
		},
		60_000,
	);

	test('a dashboard that recorded before the agent came hands the file over to it when it attaches', async () => {
		agent.kill('SIGTERM');
		await new Promise(resolve => agent.once('close', resolve));
		const dashboard = await engineFor(sim, {agent: true, record: true, history: {directory: join(agentState, 'podtop', 'history')}});
		try {
			dashboard.start();
			await waitFor(() => dashboard.history.status.getState().state === 'recording', 10_000);
			agent = await startAgent('serving');
			expect(agent.log()).toContain('another podtop (the agent?) records this account');
			await waitFor(() => dashboard.store.getState().via === 'agent', 10_000);
			await waitFor(() => dashboard.history.status.getState().state === 'reading');
			expect(dashboard.history.status.getState()).toMatchObject({reason: 'the agent records this account', file});
			// The agent takes the file within its retry (5 s), and what it records is what the dashboard reads.
			await waitFor(() => agent.log().includes(`recording history in ${file}`), 15_000);
			const before = (await dashboard.history.reader()!.span())!.to;
			await waitFor(async () => (await dashboard.history.reader()!.span())!.to > before, 15_000);
		} finally {
			await dashboard.close();
		}
	}, 60_000);
});

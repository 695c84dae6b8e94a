import {spawn} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {parseAlertRules} from '../../source/config/alert-rules.js';
import type {Engine} from '../../source/engine/create-engine.js';
import type {AlertChange} from '../../source/poll/alert-loop.js';
import {engineFor} from '../helpers/engine.js';
import {cliEnv, cliPath} from '../helpers/run-cli.js';
import {startTestSim, type TestSim, waitFor} from '../helpers/sim-client.js';

const rulesText = [
	'[[probe]]',
	'endpoint = "llama-*"',
	'every = "2s"',
	'timeout = "30s"',
	// The echo worker waits delay_ms; the slow (video) worker runs `seconds`.
	'input = {delay_ms = 50, seconds = 3}',
	'',
	'[[rule]]',
	'name = "llama slow"',
	'kind = "latency"',
	'endpoint = "llama-*"',
	'over = "2s"',
	'window = "1m"',
].join('\n');

let sim: TestSim;
let folder: string;
const engines: Engine[] = [];

beforeAll(async () => {
	folder = mkdtempSync(join(tmpdir(), 'podtop-probes-'));
	// Where `podtop agent` listens, and where an engine of this process looks for it.
	process.env.XDG_RUNTIME_DIR = join(folder, 'run');
	sim = await startTestSim({
		endpoints: [
			// Warm workers (two always on, flash boot): the probes measure the queue and the run, not a cold start.
			{id: 'ep-fast', name: 'llama-fast', worker: 'echo', workersMin: 2, workersMax: 3, flashBoot: true},
			{id: 'ep-slow', name: 'llama-slow', worker: 'slow', workersMin: 2, workersMax: 3, flashBoot: true},
			{id: 'ep-other', name: 'sdxl', worker: 'echo', workersMin: 2, workersMax: 3, flashBoot: true},
		],
	});
	const started = sim;
	const warm = async (id: string) => ((await started.health(id)) as {workers: {idle: number}}).workers.idle > 0;
	await waitFor(async () => (await Promise.all(['ep-fast', 'ep-slow', 'ep-other'].map(warm))).every(Boolean), 30_000, 200);
}, 60_000);

afterAll(async () => {
	await Promise.all(engines.map(async engine => engine.close()));
	await sim.close();
	rmSync(folder, {recursive: true, force: true});
});

const runRequests = async () => {
	const stats = (await sim.call('GET', '/__sim/stats')).body.endpoints as Record<string, Record<string, {requests: number}>>;
	return Object.fromEntries(['ep-fast', 'ep-slow', 'ep-other'].map(id => [id, stats[id]?.run?.requests ?? 0]));
};

describe('probes against the simulator over real HTTP', () => {
	test('a probe rule every 2 s sends jobs to exactly the matching endpoints, records each in history, and a latency rule fires on the slow one', async () => {
		const auditPath = join(folder, 'audit.jsonl');
		const changes: AlertChange[] = [];
		await sim.call('POST', '/__sim/stats/reset');
		const engine = await engineFor(sim, {
			allVisible: true,
			poll: ['endpoints'],
			record: true,
			auditPath,
			history: {directory: join(folder, 'history')},
			alerts: {rules: parseAlertRules(rulesText, 'alerts.toml')},
		});
		engines.push(engine);
		// The alert's firings, as the banner and the webhook see them.
		const unsubscribe = engine.store.subscribe((next, previous) => {
			const before = new Set(previous.alerts.map(alert => alert.id));
			changes.push(...next.alerts.filter(alert => !before.has(alert.id)).map(alert => ({state: 'firing' as const, alert, at: Date.now()})));
		});
		engine.start();
		const probesOf = (id: string) => engine.store.getState().probes.byEndpoint[id] ?? [];
		// Two fast probes done (2 s apart), and two slow ones (3 s each, one at a time).
		await waitFor(() => probesOf('ep-fast').length >= 2 && probesOf('ep-slow').length >= 2, 30_000, 100);
		const alerts = await waitFor(() => (engine.store.getState().alerts.length > 0 ? engine.store.getState().alerts : undefined), 10_000, 100);
		expect(alerts.map(alert => `${alert.rule}@${alert.subject}`)).toEqual(['llama slow@ep-slow']);
		expect(alerts[0]!.message).toMatch(/^P95 probe time \d+\.\d s over \d+ probes? in 1m00s \(over 2\.0 s\)$/);
		expect(changes.map(change => change.alert.subject)).toEqual(['ep-slow']);

		const fast = probesOf('ep-fast');
		const slow = probesOf('ep-slow');
		for (const probe of [...fast, ...slow]) {
			expect(probe).toMatchObject({outcome: 'ok', cold: false});
			expect(probe.delayMs).toBeGreaterThanOrEqual(0);
		}

		expect(Math.min(...slow.map(probe => probe.executionMs!))).toBeGreaterThanOrEqual(2900);
		// Every fast probe took less than any slow one (a busy host stretches both alike).
		expect(Math.max(...fast.map(probe => probe.executionMs!))).toBeLessThan(Math.min(...slow.map(probe => probe.executionMs!)));
		// One at a time per endpoint, every 2 s: the fast one was sent more often than the slow one.
		expect(fast[1]!.at - fast[0]!.at).toBeGreaterThanOrEqual(1900);
		expect(slow[1]!.at - slow[0]!.at).toBeGreaterThanOrEqual(2900);
		// A recorded probe's job is let go: at most the one under way per endpoint is tracked.
		expect(engine.store.getState().jobs.byKey.size).toBeLessThanOrEqual(2);
		unsubscribe();
		await engine.close();

		// The service counted exactly the probes sent, each audited as one `endpoint.probe` write; none to the endpoint no rule matches.
		const audited = readFileSync(auditPath, 'utf8')
			.trim()
			.split('\n')
			.map(line => JSON.parse(line) as {operation: string; target: {endpointId: string}; outcome: string});
		// (One sent as the engine closed may have had no answer: audited as may-have-happened, never sent again.)
		expect(audited.every(line => line.operation === 'endpoint.probe' && ['ok', 'may-have-happened'].includes(line.outcome))).toBe(true);
		const sent = (id: string, outcome?: string) =>
			audited.filter(line => line.target.endpointId === id && (outcome === undefined || line.outcome === outcome)).length;
		// Each one audited `ok` reached the service; the one under way as the engine closed, audited as may-have-happened, may not
		// have (its request cut before the service read it).
		const requests = await runRequests();
		for (const id of ['ep-fast', 'ep-slow'] as const) {
			expect(requests[id]).toBeGreaterThanOrEqual(sent(id, 'ok'));
			expect(requests[id]).toBeLessThanOrEqual(sent(id));
		}

		expect(sent('ep-fast', 'may-have-happened') + sent('ep-slow', 'may-have-happened')).toBeLessThanOrEqual(1);
		expect(requests['ep-other']).toBe(0);
		expect(sent('ep-fast')).toBeGreaterThanOrEqual(2);

		// Recorded: a `probe` event per probe that ended, read back by a process that only reads.
		const reader = await engineFor(sim, {poll: [], history: {directory: join(folder, 'history')}});
		engines.push(reader);
		const events = (await reader.history.reader()!.events(Date.now() - 600_000, Date.now(), 1000)).filter(event => event.type === 'probe');
		const recorded = (id: string) => events.filter(event => event.subject === id);
		expect(recorded('ep-fast').length).toBeGreaterThanOrEqual(fast.length);
		expect(recorded('ep-slow').length).toBeGreaterThanOrEqual(slow.length);
		expect(recorded('ep-other')).toEqual([]);
		expect(recorded('ep-slow')[0]).toMatchObject({kind: 'endpoint', name: 'llama-slow', data: {outcome: 'ok', cold: false, rule: 'probe llama-*'}});
		expect(recorded('ep-slow')[0]!.data.executionMs).toBe(slow[0]!.executionMs);
		// A later start seeds its figures (and the cold-start rule's warm median) from them.
		const again = await engineFor(sim, {
			poll: ['endpoints'],
			allVisible: true,
			record: true,
			readOnly: true,
			history: {directory: join(folder, 'history')},
			alerts: {rules: parseAlertRules(rulesText, 'alerts.toml')},
		});
		engines.push(again);
		again.start();
		await waitFor(() => (again.store.getState().probes.byEndpoint['ep-slow']?.length ?? 0) >= slow.length, 10_000, 50);
		await again.close();
	}, 60_000);

	test('read-only sends no probe, and says so once', async () => {
		await sim.call('POST', '/__sim/stats/reset');
		const notices: string[] = [];
		const engine = await engineFor(sim, {
			allVisible: true,
			poll: ['endpoints'],
			record: true,
			readOnly: true,
			readOnlyReason: 'profile "prod" is read-only',
			history: {disabled: true},
			alerts: {rules: parseAlertRules(rulesText, 'alerts.toml')},
			notice(line) {
				notices.push(line);
			},
		});
		engines.push(engine);
		engine.start();
		await waitFor(() => engine.store.getState().endpoints.order.length === 3, 10_000, 50);
		await new Promise(resolve => setTimeout(resolve, 4500));
		expect(await runRequests()).toEqual({'ep-fast': 0, 'ep-slow': 0, 'ep-other': 0});
		expect(notices.filter(line => line.includes('probe'))).toEqual(['read-only: the probe rule sends nothing (profile "prod" is read-only)']);
		// The column still shows (probes may come from history or an agent).
		expect(engine.store.getState().probes.configured).toBe(true);
		await engine.close();
	}, 20_000);

	test('a dashboard attached to an agent sends no probe: the agent does, and its probes reach the dashboard', async () => {
		await sim.call('POST', '/__sim/stats/reset');
		const rules = join(folder, 'alerts.toml');
		writeFileSync(rules, rulesText);
		const state = join(folder, 'agent-state');
		const agent = spawn(process.execPath, [cliPath, 'agent', '--alerts', rules, '--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`], {
			env: cliEnv({RUNPOD_API_KEY: sim.apiKey, XDG_RUNTIME_DIR: join(folder, 'run'), XDG_STATE_HOME: state}),
		});
		let log = '';
		agent.stderr.setEncoding('utf8');
		agent.stderr.on('data', (text: string) => {
			log += text;
		});
		const clientAudit = join(folder, 'client-audit.jsonl');
		try {
			await waitFor(() => log.includes('serving'), 15_000, 50);
			const client = await engineFor(sim, {
				agent: true,
				record: true,
				auditPath: clientAudit,
				history: {directory: join(folder, 'client-history')},
				alerts: {rules: parseAlertRules(rulesText, 'alerts.toml')},
			});
			engines.push(client);
			client.start();
			await waitFor(() => client.store.getState().via === 'agent', 10_000, 50);
			// The agent's probes come over the socket as they end.
			await waitFor(() => (client.store.getState().probes.byEndpoint['ep-fast']?.length ?? 0) >= 2, 20_000, 100);
			await client.close();
		} finally {
			agent.kill('SIGTERM');
			await new Promise(resolve => agent.once('close', resolve));
		}

		// Every probe the service saw was the agent's (its audit log); the dashboard sent none.
		expect(existsSync(clientAudit)).toBe(false);
		const audited = readFileSync(join(state, 'podtop', 'audit.jsonl'), 'utf8')
			.trim()
			.split('\n');
		const sent = (id: string) => audited.filter(line => line.includes('"endpoint.probe"') && line.includes(`"endpointId":"${id}"`)).length;
		const requests = await runRequests();
		expect(requests['ep-fast']).toBeGreaterThanOrEqual(2);
		expect(requests).toEqual({'ep-fast': sent('ep-fast'), 'ep-slow': sent('ep-slow'), 'ep-other': 0});
	}, 60_000);
});

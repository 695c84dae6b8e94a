import {spawn, type ChildProcessWithoutNullStreams} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, statSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {groupAgentDirectory} from '../../source/api/agent-protocol.js';
import type {Engine} from '../../source/engine/create-engine.js';
import {engineFor, simStats} from '../helpers/engine.js';
import {cliEnv, cliPath, runCli} from '../helpers/run-cli.js';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';
import {hasTmux, TmuxSession} from '../helpers/tmux.js';

const key = 'rpa_AGENTATTACHSECRET00001111222233';
const directory = mkdtempSync(join(tmpdir(), 'podtop-attach-'));
let sim: TestSim;
let service: string[];
const env = () => cliEnv({RUNPOD_API_KEY: key, XDG_RUNTIME_DIR: directory});

/** `podtop agent` as its own process; resolves once it serves. */
async function startAgent(...extra: string[]): Promise<ChildProcessWithoutNullStreams & {log: () => string}> {
	const child = spawn(process.execPath, [cliPath, 'agent', ...extra, ...service], {env: env()});
	let log = '';
	child.stderr.setEncoding('utf8');
	child.stderr.on('data', (text: string) => {
		log += text;
	});
	await waitFor(() => log.includes('serving'), 15_000);
	return Object.assign(child, {log: () => log});
}

const healthRequests = async () => Object.values(await simStats(sim)).reduce((sum, operations) => sum + (operations.health?.requests ?? 0), 0);

beforeAll(async () => {
	process.env.XDG_RUNTIME_DIR = directory;
	sim = await startTestSim({apiKey: key, load: true, speed: 5});
	service = ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`];
});

afterAll(async () => sim.close());

describe('attaching to podtop agent', () => {
	test('an engine attaches, falls back to its own polling when the agent dies or hangs, and attaches again when it is back', async () => {
		let agent = await startAgent();
		const client: Engine = await engineFor(sim, {agent: true});
		try {
			client.start();
			await waitFor(() => client.store.getState().via === 'agent');
			// The agent may have had no list yet when the client attached: it comes as events.
			const endpointId = await waitFor(() => client.store.getState().endpoints.order[0]);
			await waitFor(() => client.store.getState().endpoints.byId[endpointId]?.health);

			// Killed: the socket closes, the client polls on its own at once, and its data keeps coming.
			agent.kill('SIGKILL');
			await waitFor(() => client.store.getState().via === 'direct', 30_000);
			const before = await healthRequests();
			await waitFor(async () => (await healthRequests()) > before, 30_000);
			expect(existsSync(/on (\S+\.sock)/.exec(agent.log())![1]!)).toBe(true);

			// Back (over the socket file the dead one left): the client attaches within its retry, and stops polling.
			agent = await startAgent();
			await waitFor(() => client.store.getState().via === 'agent', 30_000);

			// Hung (SIGSTOP): the socket stays open but no tick comes for 3.5 s, so the client falls back.
			agent.kill('SIGSTOP');
			await waitFor(() => client.store.getState().via === 'direct', 30_000);
			agent.kill('SIGCONT');
			await waitFor(() => client.store.getState().via === 'agent', 30_000);
		} finally {
			agent.kill('SIGCONT');
			await client.close();
			agent.kill('SIGTERM');
			await new Promise(resolve => agent.once('close', resolve));
		}

		expect(agent.log()).not.toContain(key);
	}, 60_000);

	test("podtop snapshot takes the agent's picture and says so; --no-agent asks the service", async () => {
		const agent = await startAgent();
		try {
			await waitFor(async () => {
				const {stdout} = await runCli(['snapshot', ...service], env());
				return stdout.includes('via agent');
			}, 15_000);
			const viaAgent = await runCli(['snapshot', '--json', ...service], env());
			expect(viaAgent.code).toBe(0);
			expect(JSON.parse(viaAgent.stdout)).toMatchObject({
				via: 'agent',
				endpoints: expect.arrayContaining([expect.objectContaining({health: expect.any(Object)})]),
			});
			const direct = await runCli(['snapshot', '--json', '--no-agent', ...service], env());
			expect(JSON.parse(direct.stdout).via).toBe('direct');

			// watch says where its data comes from, and streams the agent's changes.
			const watch = await runCli(['watch', ...service], env(), 4000);
			const events = watch.stdout
				.trim()
				.split('\n')
				.map(line => JSON.parse(line));
			expect(events.find(event => event.type === 'source')).toMatchObject({via: 'agent'});
			expect(events.some(event => event.type === 'health')).toBe(true);

			// One agent per account: a second one says where the first is, and exits 1.
			const second = await runCli(['agent', ...service], env());
			expect(second.code).toBe(1);
			expect(second.stderr).toMatch(/an agent already serves this account on .*\.sock/);
		} finally {
			agent.kill('SIGTERM');
			await new Promise(resolve => agent.once('close', resolve));
		}
	}, 60_000);

	test('the agent serves Prometheus metrics too (--export), its budget use among them', async () => {
		const agent = await startAgent('--export', '127.0.0.1:0');
		try {
			const url = await waitFor(() => /serving (http:\S+\/metrics)/.exec(agent.log())?.[1]);
			const text = await waitFor(async () => {
				const body = await (await fetch(url)).text();
				return /^podtop_budget_used_ratio{budget="v2"} /m.test(body) && body.includes('podtop_endpoint_jobs_in_queue{') ? body : undefined;
			}, 15_000);
			expect(text).toMatch(/^podtop_source_stale{source="jobApi"} 0$/m);
		} finally {
			agent.kill('SIGTERM');
			await new Promise(resolve => agent.once('close', resolve));
		}
	}, 30_000);

	test('--group: the socket in a folder of the group (0710), open to it (0660); a member finds it there', async () => {
		const gid = process.getgid!();
		const group = readFileSync('/etc/group', 'utf8')
			.split('\n')
			.map(line => line.split(':'))
			.find(fields => fields[2] === String(gid))![0]!;
		const agent = await startAgent('--group', group);
		try {
			const socketPath = /on (\S+\.sock) \(mode 0660\)/.exec(agent.log())![1]!;
			expect(socketPath.startsWith(groupAgentDirectory(gid))).toBe(true);
			expect(statSync(socketPath).mode & 0o777).toBe(0o660);
			expect(statSync(groupAgentDirectory(gid)).mode & 0o777).toBe(0o710);
			// A member whose own runtime folder has no agent looks in its groups' folders.
			process.env.XDG_RUNTIME_DIR = mkdtempSync(join(tmpdir(), 'podtop-member-'));
			const member = await engineFor(sim, {agent: true});
			try {
				member.start();
				await waitFor(() => member.store.getState().via === 'agent', 5000);
			} finally {
				await member.close();
				process.env.XDG_RUNTIME_DIR = directory;
			}
		} finally {
			agent.kill('SIGTERM');
			await new Promise(resolve => agent.once('close', resolve));
		}
	}, 30_000);

	test('bad input to podtop agent is a usage error (exit 2), nothing started', async () => {
		const filtered = await runCli(['agent', '--endpoints', 'abc', ...service], env());
		expect(filtered.code).toBe(2);
		expect(filtered.stderr).toContain('drop --endpoints');
		const group = await runCli(['agent', '--group', 'no-such-group-here', ...service], env());
		expect(group.code).toBe(2);
		expect(group.stderr).toContain('there is no group "no-such-group-here"');
	}, 30_000);

	test.skipIf(!hasTmux)(
		'the dashboard says "via agent" while attached, and carries on by itself when the agent goes',
		async () => {
			const agent = await startAgent();
			const tmux = new TmuxSession(120, 30, service, {RUNPOD_API_KEY: key, XDG_RUNTIME_DIR: directory});
			try {
				await tmux.waitFor(/via agent[\s\S]*llama/);
				agent.kill('SIGTERM');
				await new Promise(resolve => agent.once('close', resolve));
				await waitFor(() => !tmux.screen().includes('via agent') && tmux.screen().includes('llama'), 3000);
				expect(tmux.screen()).not.toContain('DEGRADED');
			} finally {
				tmux.close();
				agent.kill('SIGTERM');
			}
		},
		60_000,
	);
});

import {spawn} from 'node:child_process';
import {existsSync, mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, describe, expect, test} from 'vitest';
import {demoSocketPath} from '../../source/api/demo-link.js';
import {demoOrigin, demoPastMs} from '../../source/engine/demo-past.js';
import {cliEnv, cliPath, runCli} from '../helpers/run-cli.js';

/*
The demo is one account across commands: each podtop started within the hour runs the same world
(seed and origin), and while a DEMO podtop keeps its simulator running (`podtop agent` here, a
dashboard alike), the commands use that one. Real processes, one after the other.
*/

const home = mkdtempSync(path.join(tmpdir(), 'podtop-demo-world-'));
afterAll(() => {
	rmSync(home, {recursive: true, force: true});
});

const env = (state = path.join(home, 'state')) => cliEnv({HOME: home, XDG_STATE_HOME: state});
/** A command on two busy cores runs the demo's 2 to 3 simulated hours first: room for it. */
const commandMs = 120_000;

type Pod = {readonly name: string; readonly desiredStatus: string; readonly podType?: string};
type Endpoint = {readonly name: string; readonly workersMin: number; readonly workersMax: number};
type Snapshot = {readonly generatedAt?: string; readonly pods: readonly Pod[]; readonly endpoints: readonly Endpoint[]};

const snapshotOf = async (args: readonly string[]): Promise<Snapshot> => {
	const {code, stdout, stderr} = await runCli(['snapshot', '--json', ...args], env(), commandMs);
	expect(code, stderr).toBe(0);
	return JSON.parse(stdout) as Snapshot;
};

/** The hour the demo's world begins at, for a command started now. */
const world = () => demoOrigin(Date.now(), demoPastMs);

describe('the demo is one account across commands', () => {
	test(
		'`snapshot`, then `snapshot --at` the moment it showed, from another process: the same fleet, the same pods up or down',
		async () => {
			let live: Snapshot;
			let past: Snapshot;
			let attempts = 0;
			// Two commands either side of the hour run two worlds (each a new hour's): then the pair is taken again.
			for (;;) {
				const before = world();
				live = await snapshotOf([]);
				past = await snapshotOf(['--at', live.generatedAt!]);
				if (world() === before || ++attempts > 1) {
					break;
				}
			}

			expect(past.endpoints.map(({name, workersMin, workersMax}) => ({name, workersMin, workersMax}))).toEqual(
				live.endpoints.map(({name, workersMin, workersMax}) => ({name, workersMin, workersMax})),
			);
			const livePods = new Map(live.pods.map(pod => [pod.name, pod.desiredStatus]));
			expect(past.pods.map(pod => pod.name).sort()).toEqual([...livePods.keys()].sort());
			for (const pod of past.pods) {
				// The recorded view is the last sample (pods every 30 s) at or before the moment: a spot pod
				// interrupted in those seconds still reads RUNNING there. Nothing else may differ.
				const lagging = pod.desiredStatus === 'RUNNING' && livePods.get(pod.name) === 'EXITED' && pod.podType === 'INTERRUPTABLE';
				if (!lagging) {
					expect(`${pod.name} ${pod.desiredStatus}`).toBe(`${pod.name} ${livePods.get(pod.name)}`);
				}
			}
		},
		4 * commandMs,
	);

	test(
		'`run --no-follow`, then `job <id>` from another process, while `podtop agent` keeps the demo running',
		async () => {
			const agent = spawn(process.execPath, [cliPath, 'agent'], {env: env()});
			let agentErr = '';
			agent.stderr.setEncoding('utf8');
			const serving = new Promise<void>((resolve, reject) => {
				agent.stderr.on('data', (text: string) => {
					agentErr += text;
					if (agentErr.includes('serving the demo')) {
						resolve();
					}
				});
				agent.once('close', code => {
					reject(new Error(`the agent ended (${code}): ${agentErr}`));
				});
			});
			const closed = new Promise(resolve => agent.once('close', resolve));
			try {
				await serving;
				expect(agentErr).toContain(demoSocketPath(env()));
				const input = {prompt: 'one account'};
				const run = await runCli(['run', 'smoke-test-echo', '--input', JSON.stringify(input), '--no-follow'], env(), commandMs);
				expect(run.code, run.stderr).toBe(0);
				const id = run.stdout.trim();
				expect(id).toMatch(/^[\w-]+$/);
				const job = await runCli(['job', 'smoke-test-echo', id, '--json'], env(), commandMs);
				expect(job.code, job.stderr).toBe(0);
				expect(JSON.parse(job.stdout)).toMatchObject({id, status: 'COMPLETED', output: input});

				// One simulator per user: a second agent says which serves, and starts nothing.
				const second = await runCli(['agent'], env(), commandMs);
				expect(second.code).toBe(1);
				expect(second.stderr).toContain("serves the demo's simulator already");

				// Another user's state folder (another XDG_STATE_HOME here) finds no simulator: its own world, where the job is unknown.
				const elsewhere = await runCli(['job', 'smoke-test-echo', id, '--json'], env(path.join(home, 'other-state')), commandMs);
				expect(elsewhere.code).toBe(4);
			} finally {
				agent.kill('SIGTERM');
				await closed;
			}

			// The socket goes with the agent: the next command runs a world of its own.
			expect(existsSync(demoSocketPath(env()))).toBe(false);
		},
		6 * commandMs,
	);
});

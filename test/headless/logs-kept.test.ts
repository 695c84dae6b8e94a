import {spawn} from 'node:child_process';
import {mkdtempSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {historyFileName, openHistoryForReading} from '../../source/history/history-file.js';
import {keptLogsIn} from '../../source/history/kept-logs.js';
import {cliEnv, cliPath, runCli} from '../helpers/run-cli.js';
import {waitFor} from '../helpers/sim-client.js';
import {closeRestSims, startRestSim, type RestSim} from '../sim/rest/rest-client.js';

const key = 'rpa_LOGSKEPT000011112222333344';
const crashy = 'crashloopingep2';
const state = mkdtempSync(join(tmpdir(), 'podtop-logs-kept-state-'));
const runtime = mkdtempSync(join(tmpdir(), 'podtop-logs-kept-runtime-'));
let sim: RestSim;

beforeAll(async () => {
	sim = await startRestSim({
		apiKey: key,
		speed: 20,
		restQuota: {minute: 10_000, hour: 100_000, day: 1_000_000},
		endpoints: [{id: crashy, worker: 'echo', workersMin: 2, workersMax: 2, gpuIds: 'ADA_24'}],
		faults: [{kind: 'crash-loop', endpoint: crashy, cause: 'oom'}],
	});
	// Jobs wait: the agent reads the endpoint's workers.
	await sim.run(crashy, {delay_ms: 10});
});

afterAll(closeRestSims);

describe('podtop logs worker <endpoint> <gone worker>', () => {
	test('after the agent that kept its last lines was killed (-9), they are read from the history file and said to be what the agent kept', async () => {
		const urls = ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`];
		const env = cliEnv({RUNPOD_API_KEY: key, XDG_STATE_HOME: state, XDG_RUNTIME_DIR: runtime});
		const agent = spawn(process.execPath, [cliPath, 'agent', ...urls], {env});
		let log = '';
		agent.stderr.setEncoding('utf8');
		agent.stderr.on('data', (text: string) => {
			log += text;
		});
		const file = join(state, 'podtop', 'history', historyFileName({apiUrl: `${sim.url}/v2`, graphqlUrl: `${sim.url}/graphql`, apiKey: key}));
		let gone: string;
		try {
			await waitFor(() => log.includes('recording history in'), 20_000);
			// No client follows anything: the agent follows the crash-looping workers itself, and keeps a gone one's lines.
			gone = await waitFor(
				() => {
					const db = openHistoryForReading(file);
					try {
						return db && keptLogsIn(db, {writable: false}).workers(crashy)[0];
					} finally {
						db?.close();
					}
				},
				90_000,
				250,
			);
		} finally {
			agent.kill('SIGKILL');
		}

		await new Promise(resolve => {
			agent.once('exit', resolve);
		});
		const result = await runCli(['logs', 'worker', crashy, gone, '--no-agent', ...urls], env);
		expect(result.code).toBe(0);
		expect(result.stdout).toContain('Container killed: out of memory (OOMKilled, exit code 137)');
		expect(result.stderr).toMatch(/gone: .*; the \d+ lines before are the last the agent kept of it \(from the history file\)/);
		// A worker the agent never kept is still not found.
		const never = await runCli(['logs', 'worker', crashy, 'no-such-worker', '--no-agent', ...urls], env);
		expect(never.code).toBe(4);
	}, 150_000);
});

import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {startTestSim, type TestSim} from '../helpers/sim-client.js';
import {cliEnv, runCli} from '../helpers/run-cli.js';

let sim: TestSim;
const key = 'rpa_JOBTAILSECRET000011112222';

beforeAll(async () => {
	sim = await startTestSim({apiKey: key, speed: 5, endpoints: [{id: 'echo', workersMin: 1, workersMax: 1, flashBoot: true}]});
});

afterAll(async () => sim.close());

const urls = () => ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`];

describe('podtop job without a terminal (tail -f for a job)', () => {
	test('prints the stream as it arrives, with escape sequences made inert, and exits 0 with a COMPLETED job', async () => {
		const id = await sim.run('echo', {delay_ms: 8000, stream: ['first line\n', 'second \u001B[31mred\u001B[0m line\n', 'third line\n']});
		const {code, stdout, stderr} = await runCli(['job', 'echo', id, ...urls()], cliEnv({RUNPOD_API_KEY: key}));
		expect(stderr).toBe('');
		expect(code).toBe(0);
		expect(stdout).toBe('first line\nsecond ␛[31mred␛[0m line\nthird line\n');
	});

	test('exits 1 with the error on stderr when the job fails', async () => {
		const id = await sim.run('echo', {delay_ms: 500, error: 'CUDA out of memory'});
		const {code, stderr} = await runCli(['job', 'echo', id, ...urls()], cliEnv({RUNPOD_API_KEY: key}));
		expect(code).toBe(1);
		expect(stderr).toMatch(/job FAILED: CUDA out of memory/);
	});

	test('--json: stdout is one line, the final status; a finished job that streamed nothing prints its output', async () => {
		const id = await sim.run('echo', {delay_ms: 300, stream: ['not printed with --json\n'], payload: 'kept'});
		const json = await runCli(['job', 'echo', id, '--json', ...urls()], cliEnv({RUNPOD_API_KEY: key}));
		expect(json.code).toBe(0);
		expect(json.stdout.trim().split('\n')).toHaveLength(1);
		expect(JSON.parse(json.stdout)).toMatchObject({id, status: 'COMPLETED', executionTime: expect.any(Number)});
		const quiet = await sim.run('echo', {delay_ms: 50, payload: 'hello'});
		const plain = await runCli(['job', 'echo', quiet, ...urls()], cliEnv({RUNPOD_API_KEY: key}));
		expect(plain.code).toBe(0);
		expect(JSON.parse(plain.stdout)).toEqual({delay_ms: 50, payload: 'hello'});
	});

	test('exits 4 for a job that does not exist, 2 without both ids', async () => {
		expect((await runCli(['job', 'echo', 'no-such-job', ...urls()], cliEnv({RUNPOD_API_KEY: key}))).code).toBe(4);
		expect((await runCli(['job', 'echo'], cliEnv({RUNPOD_API_KEY: key}))).code).toBe(2);
	});
});

import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {cliEnv, runCli} from '../helpers/run-cli.js';
import {startTestSim, type TestSim} from '../helpers/sim-client.js';

const wrongKey = 'rpa_AWRONGKEY00000000000000000000000';
const home = mkdtempSync(join(tmpdir(), 'podtop-key-refused-'));
let sim: TestSim;
let urls: string[];
const env = () => cliEnv({RUNPOD_API_KEY: wrongKey, XDG_RUNTIME_DIR: home, XDG_STATE_HOME: home});
const sentence = "podtop: the key is not accepted (HTTP 401): check RUNPOD_API_KEY or the profile's api_key in ~/.runpod/config.toml, then run it again";

beforeAll(async () => {
	sim = await startTestSim({apiKey: 'rpa_THERIGHTKEY0000000000000000000000'});
	urls = ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`];
});

afterAll(async () => {
	await sim?.close();
	rmSync(home, {recursive: true, force: true});
});

describe('a key the service refuses, on the command line', () => {
	test('watch ends with exit 3 and says what to do, instead of streaming failures for ever', async () => {
		const {code, stderr} = await runCli(['watch', '--no-agent', ...urls], env(), 20_000);
		expect(stderr).toContain(sentence);
		expect(code).toBe(3);
		expect(stderr).not.toContain(wrongKey);
	});

	test('snapshot exits 3 with the same sentence', async () => {
		const {code, stderr} = await runCli(['snapshot', '--no-agent', ...urls], env());
		expect(stderr).toContain(sentence);
		expect(code).toBe(3);
	});
});

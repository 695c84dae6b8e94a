import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {gql} from '../helpers/graphql-client.js';
import {cliEnv, runCli} from '../helpers/run-cli.js';
import {startTestSim, type TestSim} from '../helpers/sim-client.js';
import {hasTmux, TmuxSession} from '../helpers/tmux.js';

/** Text any user of the account can put in the service: escapes, C1, bidi, zero-width, and sheer length. */
const hostile = '\u001B]0;PWNED\u0007\u001B[2Jevil\u001B[31m\u009B6n\u202Egnp.exe\u200B';
const long = `long-${'x'.repeat(10_000)}`;
/** What must never reach a terminal raw: ESC, BEL, C1 controls, bidi overrides, zero-width characters. */
const raw = /[\u0007\u001B\u0080-\u009F\u200B-\u200F\u202A-\u202E\u2066-\u2069]/;

let sim: TestSim;
let hostileEndpoint: string;

beforeAll(async () => {
	sim = await startTestSim({graphqlRate: 1000, podCount: 0, endpoints: [{id: 'echo', name: 'echo', workersMin: 1, workersMax: 1, flashBoot: true}]});
	const saved = await gql(sim, 'mutation Save($input: EndpointInput!) { saveEndpoint(input: $input) { id } }', {
		variables: {input: {name: hostile, templateId: hostile, gpuIds: 'ADA_24', workersMin: 0, workersMax: 1}},
	});
	hostileEndpoint = saved.body.data.saveEndpoint.id as string;
	await gql(sim, 'mutation Save($input: EndpointInput!) { saveEndpoint(input: $input) { id } }', {
		variables: {input: {name: long, templateId: 't', gpuIds: 'ADA_24', workersMin: 0, workersMax: 1}},
	});
	const types = (await gql(sim, '{ gpuTypes { id lowestPrice(input: {gpuCount: 1}) { stockStatus } } }')).body.data.gpuTypes as Array<{
		id: string;
		lowestPrice: {stockStatus: string | null};
	}>;
	const plenty = types.find(type => type.lowestPrice.stockStatus === 'High')!;
	await gql(sim, 'mutation Deploy($input: PodFindAndDeployOnDemandInput!) { podFindAndDeployOnDemand(input: $input) { id } }', {
		variables: {input: {name: hostile, gpuTypeId: plenty.id, imageName: hostile, env: [{key: hostile, value: hostile}]}},
	});
});

afterAll(async () => sim.close());

const state = mkdtempSync(path.join(tmpdir(), 'podtop-hostile-state-'));
const env = () => cliEnv({RUNPOD_API_KEY: sim.apiKey, XDG_STATE_HOME: state});
const urls = () => ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`];

describe('hostile data through every output path', () => {
	test('snapshot tables and JSON: nothing raw, the JSON still the same data', async () => {
		const text = await runCli(['snapshot', ...urls()], env());
		expect(text.code).toBe(0);
		expect(text.stdout).not.toMatch(raw);
		expect(text.stdout).toContain('␛]0;PWNED^G␛[2Jevil');
		const json = await runCli(['snapshot', '--json', ...urls()], env());
		expect(json.stdout).not.toMatch(raw);
		const names = (JSON.parse(json.stdout) as {endpoints: Array<{name: string}>}).endpoints.map(endpoint => endpoint.name);
		expect(names).toContain(hostile);
		expect(names).toContain(long);
	});

	test('job output, stream and errors (run, job, --json), stderr messages and the audit log: nothing raw', async () => {
		const streamed = await runCli(['run', 'echo', '--input', JSON.stringify({delay_ms: 50, stream: [hostile, '\n'], payload: hostile}), ...urls()], env());
		expect(streamed.code).toBe(0);
		expect(streamed.stdout + streamed.stderr).not.toMatch(raw);
		expect(streamed.stdout).toContain('␛]0;PWNED');
		const failed = await runCli(['run', 'echo', '--input', JSON.stringify({delay_ms: 50, error: hostile}), '--json', ...urls()], env());
		expect(failed.code).toBe(1);
		expect(failed.stdout + failed.stderr).not.toMatch(raw);
		expect((JSON.parse(failed.stdout) as {error: string}).error).toContain(hostile);
		// A 1 MB chunk and a huge JSON output pass through whole, inert.
		const file = path.join(mkdtempSync(path.join(tmpdir(), 'podtop-hostile-')), 'huge.json');
		writeFileSync(file, JSON.stringify({delay_ms: 50, stream: [`${hostile}${'y'.repeat(1024 * 1024)}`]}));
		const huge = await runCli(['run', 'echo', '--input', `@${file}`, '--json', ...urls()], env());
		expect(huge.code).toBe(0);
		expect(huge.stdout).not.toMatch(raw);
		const refused = await runCli(['cancel', hostileEndpoint, hostile, ...urls()], env());
		expect(refused.stderr).not.toMatch(raw);
		const audit = readFileSync(path.join(state, 'podtop', 'audit.jsonl'), 'utf8');
		expect(audit).not.toMatch(raw);
	}, 60_000);

	test.runIf(hasTmux)(
		'the dashboard: the names show inert, the title is untouched, a 10,000-character name keeps the layout',
		async () => {
			const session = new TmuxSession(120, 36, urls(), {RUNPOD_API_KEY: sim.apiKey});
			try {
				let screen = await session.waitFor(/Endpoints \(3\)/);
				expect(screen).toContain('␛]0;PWNED^G␛[2Jevil');
				expect(screen).not.toMatch(raw);
				expect(screen.split('\n').every(line => [...line].length <= 120)).toBe(true);
				session.send('2');
				screen = await session.waitFor(/Pods \(1\)/);
				session.send('Enter');
				screen = await session.waitFor(/image +␛]0;PWNED/);
				expect(screen).not.toMatch(raw);
				expect(session.paneTitle()).not.toMatch(/PWNED/);
				session.send('q');
				await session.waitFor(/PODTOP-EXIT 0/);
			} finally {
				session.close();
			}
		},
		60_000,
	);
});

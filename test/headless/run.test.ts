import {mkdtempSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {cliEnv, runCli} from '../helpers/run-cli.js';
import {startTestSim, type TestSim} from '../helpers/sim-client.js';

let sim: TestSim;
const key = 'rpa_RUNSECRET00001111222233334444';
const state = mkdtempSync(path.join(tmpdir(), 'podtop-run-'));

beforeAll(async () => {
	sim = await startTestSim({
		apiKey: key,
		endpoints: [
			{id: 'echo', workersMin: 1, workersMax: 1, flashBoot: true},
			{id: 'black-forest-labs-flux-1-schnell', worker: 'flux-schnell', workersMin: 1, workersMax: 1, flashBoot: true},
		],
	});
});

afterAll(async () => sim.close());

const env = (extra: Record<string, string> = {}) => cliEnv({RUNPOD_API_KEY: key, XDG_STATE_HOME: state, ...extra});
const urls = () => ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`];
const runRequests = async () => ((await sim.call('GET', '/__sim/stats')).body.endpoints.echo?.run?.requests as number | undefined) ?? 0;

describe('podtop run over real HTTP', () => {
	test('submits once, says the id on stderr at once, streams to stdout, exits 0 when COMPLETED', async () => {
		const input = JSON.stringify({delay_ms: 1500, stream: ['one\n', 'two \u001B[31m\n']});
		const {code, stdout, stderr} = await runCli(['run', 'echo', '--input', input, ...urls()], env());
		expect(stderr).toMatch(/^podtop: job \S+-u1 IN_QUEUE on echo\n$/);
		expect(stdout).toBe('one\ntwo ␛[31m\n');
		expect(code).toBe(0);
	});

	test('--json: stdout is exactly one line, the final status; --sync waits for the result', async () => {
		const {code, stdout} = await runCli(['run', 'echo', '--input', '{"payload": "hello"}', '--sync', '--wait', '5000', '--json', ...urls()], env());
		expect(code).toBe(0);
		expect(stdout.trim().split('\n')).toHaveLength(1);
		expect(JSON.parse(stdout)).toMatchObject({id: expect.stringMatching(/^sync-/), status: 'COMPLETED', output: {payload: 'hello'}});
	});

	test('a failing job exits 1 with its error on stderr; the input can come from a file', async () => {
		const file = path.join(state, 'job.json');
		writeFileSync(file, JSON.stringify({delay_ms: 50, error: 'CUDA out of memory'}));
		const failed = await runCli(['run', 'echo', '--input', `@${file}`, ...urls()], env());
		expect(failed.code).toBe(1);
		expect(failed.stderr).toMatch(/job FAILED: CUDA out of memory/);
	});

	test('--input - reads standard input, written as one word or two; --dry-run sends nothing, without it the job runs', async () => {
		const before = await runRequests();
		for (const flag of [['--input', '-'], ['--input=-']]) {
			const dry = await runCli(['run', 'echo', ...flag, '--dry-run', ...urls()], env(), 20_000, '{"prompt": "from stdin"}');
			expect(dry.stderr, flag.join(' ')).toBe('');
			expect(dry.code, flag.join(' ')).toBe(0);
			expect(JSON.parse(dry.stdout)).toMatchObject({endpoint: 'echo', route: '/run', body: {input: {prompt: 'from stdin'}}});
		}

		expect(await runRequests()).toBe(before);
		const real = await runCli(['run', 'echo', '--input', '-', '--json', ...urls()], env(), 20_000, '{"delay_ms": 20, "payload": "piped"}');
		expect(real.code).toBe(0);
		expect(JSON.parse(real.stdout)).toMatchObject({status: 'COMPLETED', output: {payload: 'piped'}});
		expect(await runRequests()).toBe(before + 1);
		const empty = await runCli(['run', 'echo', '--input', '-', ...urls()], env(), 20_000, '');
		expect(empty.code).toBe(2);
		expect(empty.stderr).toMatch(/the input on standard input/);
		const bare = await runCli(['run', 'echo', '--input', '--dry-run', ...urls()], env(), 20_000, '{}');
		expect(bare.code).toBe(2);
		expect(bare.stderr).toBe('podtop: --input needs a value, not the flag --dry-run; see podtop run --help\n');
	});

	test('--no-follow prints the id and exits 0; --dry-run prints the request and sends nothing', async () => {
		const before = await runRequests();
		const dry = await runCli(
			['run', 'echo', '--input', '{"prompt": "x"}', '--ttl', '60000', '--webhook', 'https://example.invalid/hook', '--dry-run', ...urls()],
			env(),
		);
		expect(dry.code).toBe(0);
		expect(JSON.parse(dry.stdout)).toEqual({
			endpoint: 'echo',
			route: '/run',
			bytes: expect.any(Number),
			body: {input: {prompt: 'x'}, webhook: 'https://example.invalid/hook', policy: {ttl: 60_000}},
		});
		expect(await runRequests()).toBe(before);
		const quick = await runCli(['run', 'echo', '--input', '{"delay_ms": 10}', '--no-follow', ...urls()], env());
		expect(quick.code).toBe(0);
		expect(quick.stdout).toMatch(/^\S+-u1\n$/);
		expect(await runRequests()).toBe(before + 1);
	});

	test('bad input is refused before anything is sent, with exit 2 and how to fix it', async () => {
		const before = await runRequests();
		const big = path.join(state, 'big.json');
		writeFileSync(big, JSON.stringify({blob: 'x'.repeat(11 * 1024 * 1024)}));
		// Latin-1, not UTF-8: `café` with é as the one byte 0xe9, at offset 15.
		const latin1 = path.join(state, 'latin1.json');
		writeFileSync(latin1, Buffer.concat([Buffer.from('{"prompt": "caf'), Buffer.from([0xe9]), Buffer.from('"}')]));
		const broken = path.join(state, 'broken.json');
		writeFileSync(broken, '{\n  "prompt": "a red fox",\n  "steps": 4, x\n}\n');
		const cases: Array<[string[], RegExp]> = [
			[['--input', '{"prompt": '], /--input is not valid JSON \(line 1, column 12: unexpected end of input\); the input is a JSON object/],
			[['--input', `@${broken}`], new RegExp(String.raw`${broken} is not valid JSON \(line 3, column 15: expected double-quoted property name\)`)],
			// Node 20 says no position for this one: podtop works it out.
			[['--input', '{"prompt": nope}'], /--input is not valid JSON \(line 1, column 13: unexpected 'o'\)/],
			[['--input', '{"prompt": "a",\n "steps": 4 "seed": 1}'], /--input is not valid JSON \(line 2, column 13: expected ',' or '}' after property value\)/],
			[['--input', '[1, 2]'], /--input must be a JSON object .*not an array/],
			[['--input', '@/nonexistent/job.json'], /cannot read \/nonexistent\/job\.json: ENOENT/],
			[['--input', `@${latin1}`], /latin1\.json is not valid UTF-8: byte 15 \(0xe9\) starts no character; save it as UTF-8/],
			[['--input', `@${big}`], /the request is 11\.0 MB, over the 10 MB limit of \/run \(--sync allows 20 MB\)/],
			[['--input', '{}', '--webhook', 'ftp://host/x'], /--webhook must be an http or https URL, not ftp/],
			[['--input', '{}', '--execution-timeout', '100'], /--execution-timeout is in milliseconds, over 5000/],
			[['--input', '{}', '--ttl', '5000'], /--ttl is in milliseconds, from 10000 to 7 days/],
			[['--input', '{}', '--wait', '5000'], /--wait goes with --sync/],
			[[], /give the job its input: --input/],
		];
		for (const [args, message] of cases) {
			const {code, stderr} = await runCli(['run', 'echo', ...args, ...urls()], env());
			expect(code, args.join(' ')).toBe(2);
			expect(stderr, args.join(' ')).toMatch(message);
		}

		const piped = await runCli(['run', 'echo', '--input', '-', ...urls()], env(), 20_000, '{"prompt":\n\t"a" "b"}');
		expect(piped.code).toBe(2);
		expect(piped.stderr).toMatch(/the input on standard input is not valid JSON \(line 2, column 6: expected ',' or '}' after property value\)/);

		const readOnly = await runCli(['run', 'echo', '--input', '{}', '--read-only', ...urls()], env());
		expect(readOnly.code).toBe(6);
		expect(await runRequests()).toBe(before);
		// Fifteen commands, each a process of its own.
	}, 90_000);
});

describe('podtop run on the public image model', () => {
	const model = 'black-forest-labs-flux-1-schnell';
	const imageRequests = async () => ((await sim.call('GET', '/__sim/stats')).body.endpoints[model]?.run?.requests as number | undefined) ?? 0;

	test('--prompt builds the input; --dry-run says the cost and sends nothing', async () => {
		const before = await imageRequests();
		const dry = await runCli(['run', 'black-forest-labs-flux-1-dev', '--prompt', 'a red fox', '--seed', '-1', '--dry-run', ...urls()], env());
		expect(dry.code).toBe(0);
		expect(JSON.parse(dry.stdout)).toMatchObject({
			route: '/run',
			body: {input: {prompt: 'a red fox', width: 1024, height: 1024, num_inference_steps: 28, guidance: 3.5, seed: -1, image_format: 'jpeg'}},
			cost: 0.020_971_52,
		});
		expect(dry.stderr).toMatch(/this image would cost \$0\.02097152/);
		expect(await imageRequests()).toBe(before);
	});

	test('a finished image job prints its URL and the billed cost', async () => {
		const {code, stdout} = await runCli(
			['run', model, '--prompt', 'a red fox', '--width', '512', '--height', '768', '--format', 'png', '--json', ...urls()],
			env(),
		);
		expect(code).toBe(0);
		expect(JSON.parse(stdout)).toMatchObject({status: 'COMPLETED', output: {image_url: expect.stringMatching(/\.png$/), cost: 0.000_943_718_4}});
	});

	test('out-of-range image parameters exit 2 with every problem named, and nothing is sent', async () => {
		const before = await imageRequests();
		const cases: Array<[string[], RegExp]> = [
			[['--prompt', 'x', '--width', '1000', '--steps', '9'], /--width must be a multiple of 16 \(992 or 1008\); --steps must be a whole number from 1 to 8/],
			[['--prompt', 'x', '--height', '2048'], /--height must be a whole number from 256 to 1536/],
			[['--prompt', 'x', '--guidance', '11', '--format', 'gif'], /--guidance must be a number from 0 to 10; --format must be jpeg or png/],
			[['--width', '512'], /--prompt is required/],
			[['--prompt', 'x', '--input', '{}'], /give the input one way/],
		];
		for (const [args, message] of cases) {
			const {code, stderr} = await runCli(['run', model, ...args, ...urls()], env());
			expect(code, args.join(' ')).toBe(2);
			expect(stderr, args.join(' ')).toMatch(message);
		}

		const elsewhere = await runCli(['run', 'echo', '--prompt', 'x', '--width', '512', ...urls()], env());
		expect(elsewhere.code).toBe(2);
		expect(elsewhere.stderr).toMatch(/--width is for the image models/);
		expect(await imageRequests()).toBe(before);
	});
});

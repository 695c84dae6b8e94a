import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {cliEnv, runCli} from '../helpers/run-cli.js';
import {sseEvent, sseHead, startSseServer, type SseServer} from '../helpers/sse-server.js';
import {closeRestSims, startRestSim, type RestSim} from '../sim/rest/rest-client.js';

const key = 'rpa_LOGSVERB00001111222233';
let sim: RestSim;
const env = () => cliEnv({RUNPOD_API_KEY: key});
const urls = (origin: string) => ['--api-url', `${origin}/v2`, '--graphql-url', `${origin}/graphql`, '--no-agent'];

beforeAll(async () => {
	sim = await startRestSim({apiKey: key, speed: 20, restQuota: {minute: 10_000, hour: 100_000, day: 1_000_000}});
});

afterAll(closeRestSims);

describe('podtop logs', () => {
	test('a pod by name: the last N lines and exit 0; --jsonl one object a line; --source system', async () => {
		const pods = (await sim.rest('GET', '/v2/pods')).body.pods as Array<{id: string; name: string; status: string}>;
		const pod = pods.find(each => each.status === 'RUNNING')!;
		const plain = await runCli(['logs', 'pod', pod.name, '--tail', '3', ...urls(sim.url)], env());
		expect(plain.stderr).toBe('');
		expect(plain.code).toBe(0);
		expect(plain.stdout.trimEnd().split('\n')).toHaveLength(3);
		const json = await runCli(['logs', 'pod', pod.id, '--tail', '2', '--source', 'system', '--jsonl', ...urls(sim.url)], env());
		expect(json.code).toBe(0);
		const lines = json.stdout
			.trimEnd()
			.split('\n')
			.map(line => JSON.parse(line) as Record<string, unknown>);
		expect(lines).toEqual([
			expect.objectContaining({pod: pod.id, source: 'system', line: 'Image pulled'}),
			expect.objectContaining({pod: pod.id, source: 'system', line: 'Starting container'}),
		]);
	});

	test('a worker, and every worker of an endpoint merged with a prefix (no colour in a pipe)', async () => {
		const endpoint = sim.endpoints.find(each => each.name === 'llava-next-34b')!;
		const merged = await runCli(['logs', 'worker', endpoint.name, '--all', '--tail', '2', ...urls(sim.url)], env());
		expect(merged.code).toBe(0);
		// Its workers crash-loop and are replaced: whichever were listed, each line prefixed.
		const lines = merged.stdout.trimEnd().split('\n');
		expect(lines.length).toBeGreaterThan(0);
		expect(lines.every(line => /^\[\w+] /.test(line))).toBe(true);
		expect(merged.stdout).not.toContain('\u001B');
		// One worker by a prefix of its id: the longest-lived of an endpoint that keeps one (a crash-looping worker may be replaced meanwhile).
		const steady = sim.endpoints.find(each => each.name === 'llama-3-8b-instruct-vllm')!;
		const workers = (await sim.rest('GET', `/v2/serverless/${steady.id}/workers`)).body.workers as Array<{id: string; uptimeSeconds: number | null}>;
		const oldest = workers.toSorted((a, b) => (b.uptimeSeconds ?? 0) - (a.uptimeSeconds ?? 0))[0]!;
		const one = await runCli(['logs', 'worker', steady.id, oldest.id.slice(0, 6), '--tail', '1', ...urls(sim.url)], env());
		expect(one.code).toBe(0);
		expect(one.stdout.trimEnd().split('\n')).toHaveLength(1);
	});

	test('exit 4 for a gone worker or an unknown pod, 2 for usage, 3 for a refused key', async () => {
		const endpoint = sim.endpoints.find(each => each.name === 'llava-next-34b')!;
		const gone = await runCli(['logs', 'worker', endpoint.id, 'no-such-worker', ...urls(sim.url)], env());
		expect(gone.code).toBe(4);
		expect(gone.stderr).toMatch(/gone, or never was/);
		expect((await runCli(['logs', 'pod', 'no-such-pod', ...urls(sim.url)], env())).code).toBe(4);
		expect((await runCli(['logs', 'pod', 'x', '--tail', '3', '--since', '10m', ...urls(sim.url)], env())).code).toBe(2);
		expect((await runCli(['logs', 'worker', endpoint.id, ...urls(sim.url)], env())).code).toBe(2);
		expect((await runCli(['logs', 'pod', 'x', '--tail', '9000', ...urls(sim.url)], env())).code).toBe(2);
		const refused = await runCli(['logs', 'pod', 'x', ...urls(sim.url)], cliEnv({RUNPOD_API_KEY: 'rpa_WRONGKEY000000000000'}));
		expect(refused.code).toBe(3);
		expect(refused.stderr).not.toContain('rpa_WRONGKEY');
	});

	test('hostile lines are printed inert and marked: escapes, NUL, a 1 MB line cut, a data that is not JSON', async () => {
		const server: SseServer = await startSseServer((request, response) => {
			if (!request.url?.includes('/logs')) {
				response.writeHead(404, {'content-type': 'application/problem+json'});
				response.end('{"title":"Not Found","status":404}');
				return;
			}

			response.writeHead(200, sseHead);
			response.write(sseEvent(1, 'red \u001B[31m text \u0000 and \u001B]0;owned\u0007'));
			response.write(sseEvent(2, 'z'.repeat(1024 * 1024)));
			response.write('id: 2026-06-01T12:00:00Z/000000000003\ndata: not json at all\n\n');
		});
		try {
			// A service without the pod list: the text is taken as the pod's id.
			const {code, stdout} = await runCli(['logs', 'pod', 'p1', '--tail', '3', '--management-api', 'v2', ...urls(server.url)], env());
			expect(code).toBe(0);
			const [first, second, third] = stdout.trimEnd().split('\n');
			expect(first).toBe('red ␛[31m text ^@ and ␛]0;owned^G');
			expect(second).toBe(`${'z'.repeat(16 * 1024)} [truncated]`);
			expect(third).toBe('not json at all [raw]');
			expect(stdout).not.toMatch(/[\u0000\u0007\u001B]/);
		} finally {
			await server.close();
		}
	});
});

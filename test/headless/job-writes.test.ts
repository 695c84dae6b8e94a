import {mkdtempSync, readFileSync, statSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {engineFor} from '../helpers/engine.js';
import {cliEnv, runCli} from '../helpers/run-cli.js';
import {startTestSim, waitForStatus, type TestSim} from '../helpers/sim-client.js';

let sim: TestSim;
const key = 'rpa_WRITESECRET0000111122223333';
const state = mkdtempSync(path.join(tmpdir(), 'podtop-state-'));
const auditPath = path.join(state, 'podtop', 'audit.jsonl');

beforeAll(async () => {
	sim = await startTestSim({
		apiKey: key,
		endpoints: [
			{id: 'echo', workersMin: 1, workersMax: 1, flashBoot: true},
			{id: 'parked', workersMin: 0, workersMax: 0},
		],
	});
});

afterAll(async () => sim.close());

const env = (extra: Record<string, string> = {}) => cliEnv({RUNPOD_API_KEY: key, XDG_STATE_HOME: state, ...extra});
const urls = () => ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`];
const requests = async (endpointId: string, operation: string) =>
	((await sim.call('GET', '/__sim/stats')).body.endpoints[endpointId]?.[operation]?.requests as number | undefined) ?? 0;

describe('write verbs over real HTTP: cancel, retry, purge', () => {
	test('cancel: one request, --json prints the answer, the audit log has a line without the key or the input', async () => {
		const id = await sim.run('echo', {delay_ms: 60_000});
		const {code, stdout, stderr} = await runCli(['cancel', 'echo', id, '--json', ...urls()], env());
		expect(stderr).toBe('');
		expect(code).toBe(0);
		expect(JSON.parse(stdout)).toEqual({id, status: 'CANCELLED'});
		await waitForStatus(sim, 'echo', id, 'CANCELLED');
		const lines = readFileSync(auditPath, 'utf8')
			.trim()
			.split('\n')
			.map(line => JSON.parse(line) as Record<string, unknown>);
		expect(lines.at(-1)).toMatchObject({mode: 'live', operation: 'job.cancel', target: {endpointId: 'echo', jobId: id}, outcome: 'ok', inputBytes: 0});
		expect(readFileSync(auditPath, 'utf8')).not.toContain(key);
		expect(statSync(auditPath).mode & 0o777).toBe(0o600);
	});

	test('retry: a COMPLETED job is refused by the service (exit 1); a FAILED one is queued again (exit 0); an unknown job is 4', async () => {
		const done = await sim.run('echo', {delay_ms: 10});
		await waitForStatus(sim, 'echo', done, 'COMPLETED');
		const refused = await runCli(['retry', 'echo', done, ...urls()], env());
		expect(refused.code).toBe(1);
		expect(refused.stderr).toMatch(/^podtop: refused: retry job \S+ on echo: rejected: /);
		const failed = await sim.run('echo', {delay_ms: 10, error: 'CUDA out of memory'});
		await waitForStatus(sim, 'echo', failed, 'FAILED');
		const retried = await runCli(['retry', 'echo', failed, ...urls()], env());
		expect(retried.stderr).toBe('');
		expect(retried.code).toBe(0);
		expect(retried.stdout).toMatch(new RegExp(`queued again: job ${failed} on echo is IN_QUEUE`));
		const missing = await runCli(['cancel', 'echo', 'no-such-job', ...urls()], env());
		expect(missing.code).toBe(4);
	});

	test('purge: without --yes says what it would purge and sends nothing (exit 2); with it, two per 10 s, the third refused before sending', async () => {
		for (let index = 0; index < 3; index++) {
			await sim.run('parked', {delay_ms: 10});
		}

		const dry = await runCli(['purge', 'parked', ...urls()], env());
		expect(dry.code).toBe(2);
		expect(dry.stderr).toMatch(/would purge 3 queued job\(s\) of parked \(running jobs are untouched\); add --yes to purge/);
		expect(await requests('parked', 'purge-queue')).toBe(0);
		const first = await runCli(['purge', 'parked', '--yes', ...urls()], env());
		expect(first.code).toBe(0);
		expect(first.stdout).toMatch(/purged: 3 queued job\(s\) removed from parked; running jobs untouched/);
		// One process per verb: each has its own budget, so the service's own limit answers the third.
		const second = await runCli(['purge', 'parked', '--yes', '--json', ...urls()], env());
		expect(second.code).toBe(0);
		expect(JSON.parse(second.stdout)).toEqual({removed: 0, status: 'completed'});
		expect(await requests('parked', 'purge-queue')).toBe(2);
	});

	test('in one process, a third purge within 10 s is refused before sending, with the wait', async () => {
		const engine = await engineFor(sim, {poll: []});
		try {
			const before = await requests('echo', 'purge-queue');
			expect((await engine.perform('endpoint.purge-queue', {endpointId: 'echo'}, undefined)).outcome).toBe('ok');
			expect((await engine.perform('endpoint.purge-queue', {endpointId: 'echo'}, undefined)).outcome).toBe('ok');
			const third = await engine.perform('endpoint.purge-queue', {endpointId: 'echo'}, undefined);
			expect(third.outcome).toBe('refused');
			expect(third.message).toMatch(/^refused: purge the queue of echo: rate limited: over the service's limit for purge-queue: not sent; try again in \d+ s/);
			expect(await requests('echo', 'purge-queue')).toBe(before + 2);
		} finally {
			await engine.close();
		}
	});

	test('read-only: every verb exits 6 and no write leaves the process', async () => {
		const id = await sim.run('echo', {delay_ms: 60_000});
		const before = await requests('echo', 'cancel');
		const purgesBefore = await requests('echo', 'purge-queue');
		const flag = await runCli(['cancel', 'echo', id, '--read-only', ...urls()], env());
		expect(flag.code).toBe(6);
		expect(flag.stderr).toMatch(/read-only mode: did not cancel job/);
		const variable = await runCli(['purge', 'echo', '--yes', ...urls()], env({PODTOP_READ_ONLY: '1'}));
		expect(variable.code).toBe(6);
		expect(await requests('echo', 'cancel')).toBe(before);
		expect(await requests('echo', 'purge-queue')).toBe(purgesBefore);
	});

	test('a typo in a flag is refused with a guess, and nothing is sent', async () => {
		const typo = await runCli(['purge', 'parked', '--yse', ...urls()], env());
		expect(typo.code).toBe(2);
		expect(typo.stderr).toMatch(/unknown flag --yse for `podtop purge` \(did you mean --yes\?\)/);
	});
});

import {spawn} from 'node:child_process';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {startTestSim, type TestSim} from '../helpers/sim-client.js';
import {cliEnv, cliPath, collect} from '../helpers/run-cli.js';
import {simStats} from '../helpers/engine.js';

let sim: TestSim;
const key = 'rpa_WATCHSECRET00001111222233334444';

beforeAll(async () => {
	sim = await startTestSim({apiKey: key, graphqlRate: 100, load: true, speed: 5});
});

afterAll(async () => sim.close());

describe('podtop watch --jsonl', () => {
	test('prints one JSON line per change until SIGINT, then exits 0', async () => {
		const child = spawn(process.execPath, [cliPath, 'watch', '--jsonl', '--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`], {
			env: cliEnv({RUNPOD_API_KEY: key}),
		});
		setTimeout(() => child.kill('SIGINT'), 8000);
		const {code, stdout, stderr} = await collect(child, 20_000);
		expect(stderr).toBe('');
		expect(code).toBe(0);
		const lines = stdout
			.trim()
			.split('\n')
			.map(line => JSON.parse(line));
		expect(lines[0]).toMatchObject({type: 'hello', mode: 'live'});
		const types = new Set(lines.map(line => line.type));
		for (const type of ['endpoints', 'endpoint', 'health', 'pod', 'gpu']) {
			expect(types, type).toContain(type);
		}

		const healthLines = lines.filter(line => line.type === 'health');
		expect(healthLines.length).toBeGreaterThan(8);
		expect(healthLines[0]).toMatchObject({endpointId: expect.any(String), health: {jobs: expect.any(Object), workers: expect.any(Object)}});
		// Each pod line says what the pod costs now beside its record: a running pod its price, a stopped one its volume.
		const podLines = lines.filter(line => line.type === 'pod');
		const running = podLines.find(line => line.pod.desiredStatus === 'RUNNING');
		expect(running).toMatchObject({costNowPerHr: running.pod.costPerHr, costNowEstimated: false});
		const stopped = podLines.find(line => line.pod.desiredStatus === 'EXITED');
		expect(stopped.pod.costPerHr).toBeGreaterThan(0);
		expect(stopped.costNowEstimated).toBe(true);
		expect(stopped.costNowPerHr).toBeCloseTo((stopped.pod.volumeInGb * 0.2) / 730, 10);
		expect(stdout).not.toContain(key);
	});

	test('--demo: hello at once, then the present only (the simulated past goes to history, not to the changes watched)', async () => {
		const child = spawn(process.execPath, [cliPath, 'watch', '--jsonl', '--demo'], {env: cliEnv()});
		let stdout = '';
		child.stdout.setEncoding('utf8');
		const health = new Set<string>();
		const seen = new Promise<void>(resolve => {
			child.stdout.on('data', (text: string) => {
				stdout += text;
				for (const line of text.split('\n').filter(Boolean)) {
					const event = JSON.parse(line) as {type: string; endpointId?: string};
					if (event.type === 'health') {
						health.add(event.endpointId!);
					}
				}

				if (health.size >= 9) {
					resolve();
				}
			});
		});
		const done = collect(child, 120_000);
		await seen;
		child.kill('SIGINT');
		const {code, stderr} = await done;
		expect(code).toBe(0);
		expect(stderr).toBe('');
		const events = stdout
			.trim()
			.split('\n')
			.map(line => JSON.parse(line) as {type: string; mode?: string});
		expect(events[0]).toMatchObject({type: 'hello', mode: 'demo'});
		// The past fed to the store watched would be thousands of health changes; the present is a poll's worth.
		expect(events.filter(event => event.type === 'health').length).toBeLessThan(60);
	}, 150_000);

	test('three instances on one key with 50 endpoints together cause no 429, even when the service holds their first requests and answers them together', async () => {
		// The simulator's default GraphQL rate (5 per second) and the job API's limits scaled to 1 %.
		const crowded = await startTestSim({apiKey: key, graphqlRate: 5, rateLimitScale: 0.01, endpointCount: 50, load: true, speed: 5});
		const children = [1, 2, 3].map(() =>
			spawn(
				process.execPath,
				[
					cliPath,
					'watch',
					'--jsonl',
					'--budget',
					'0.003',
					'--management-api',
					'graphql',
					'--api-url',
					`${crowded.url}/v2`,
					'--graphql-url',
					`${crowded.url}/graphql`,
				],
				{
					env: cliEnv({RUNPOD_API_KEY: key}),
				},
			),
		);
		// The simulator (in this process) stops answering three times as the three start: their first GraphQL requests are
		// answered together, late. Each podtop's next request then waits its spacing from that answer, not from its send
		// (sent at once, the three next ones reached the service in the same second as the three answered: a 429).
		const stalls = [700, 1500, 2500].map(at =>
			setTimeout(() => {
				const until = Date.now() + 1500;
				while (Date.now() < until) {
					// The service is busy.
				}
			}, at),
		);
		setTimeout(() => {
			for (const child of children) {
				child.kill('SIGTERM');
			}
		}, 30_000);
		const results = await Promise.all(children.map(async child => collect(child, 60_000)));
		for (const stall of stalls) {
			clearTimeout(stall);
		}

		for (const result of results) {
			expect(result.code).toBe(0);
			expect(result.stdout.split('\n').filter(line => line.includes('"type":"health"')).length).toBeGreaterThan(50);
		}

		const stats = await simStats(crowded);
		const limited = Object.entries(stats).flatMap(([scope, operations]) =>
			Object.entries(operations)
				.filter(([, counter]) => counter.rateLimited > 0)
				.map(([operation]) => `${scope}/${operation}`),
		);
		expect(limited).toEqual([]);
		expect(stats.graphql!.request!.requests).toBeGreaterThan(10);
		expect(Object.keys(stats).filter(scope => scope !== 'graphql')).toHaveLength(50);
		await crowded.close();
	}, 90_000);
});

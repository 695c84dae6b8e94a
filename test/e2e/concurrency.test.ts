import {mkdtempSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, expect, test} from 'vitest';
import {gql} from '../helpers/graphql-client.js';
import {cliEnv, runCli} from '../helpers/run-cli.js';
import {startTestSim, type TestSim} from '../helpers/sim-client.js';

let sim: TestSim;
const state = mkdtempSync(path.join(tmpdir(), 'podtop-concurrency-'));

beforeAll(async () => {
	sim = await startTestSim({
		graphqlRate: 1000,
		podCount: 0,
		endpoints: [
			{id: 'busy', workersMin: 1, workersMax: 1, flashBoot: true},
			{id: 'parked', workersMin: 0, workersMax: 0},
		],
	});
});

afterAll(async () => sim.close());

const env = () => cliEnv({RUNPOD_API_KEY: sim.apiKey, XDG_STATE_HOME: state});
const urls = () => ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`, '--management-api', 'graphql'];
const both = async (args: string[]) => Promise.all([runCli([...args, ...urls()], env()), runCli([...args, ...urls()], env())]);

test('two podtops on one job, one queue, one pod: each says what happened, neither crashes', async () => {
	const job = await sim.run('busy', {delay_ms: 60_000});
	const cancels = await both(['cancel', 'busy', job]);
	for (const run of cancels) {
		expect(run.code, run.stderr).toBe(0);
		expect(run.stdout).toMatch(new RegExp(`cancelled: job ${job} on busy is CANCELLED`));
	}

	for (let index = 0; index < 5; index++) {
		await sim.run('parked', {});
	}

	const purges = await both(['purge', 'parked', '--yes']);
	const removed = purges.map(run => Number(/purged: (\d+) queued/.exec(run.stdout)?.[1]));
	expect(purges.map(run => run.code)).toEqual([0, 0]);
	// One emptied the queue; the other found it empty and says so.
	expect(removed.sort((a, b) => a - b)).toEqual([0, 5]);

	const types = (await gql(sim, '{ gpuTypes { id lowestPrice(input: {gpuCount: 1}) { stockStatus } } }')).body.data.gpuTypes as Array<{
		id: string;
		lowestPrice: {stockStatus: string | null};
	}>;
	const plenty = types.find(type => type.lowestPrice.stockStatus === 'High')!;
	const pod = (
		await gql(sim, 'mutation Deploy($input: PodFindAndDeployOnDemandInput!) { podFindAndDeployOnDemand(input: $input) { id } }', {
			variables: {input: {name: 'shared', gpuTypeId: plenty.id, imageName: 'x'}},
		})
	).body.data.podFindAndDeployOnDemand.id as string;
	const stops = await both(['pod', 'stop', pod]);
	const codes = stops.map(run => run.code ?? -1).sort((a, b) => a - b);
	expect(codes).toEqual([0, 1]);
	const loser = stops.find(run => run.code === 1)!;
	expect(loser.stderr).toMatch(/refused: stop pod .* is not running/);
	for (const run of [...cancels, ...purges, ...stops]) {
		expect(run.stderr).not.toMatch(/TypeError|at .*\.js:\d+/);
	}
}, 60_000);

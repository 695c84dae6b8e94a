import {mkdtempSync, readFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, test} from 'vitest';
import {gql} from '../helpers/graphql-client.js';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';
import {hasTmux, TmuxSession} from '../helpers/tmux.js';

let session: TmuxSession | undefined;
let sim: TestSim | undefined;
afterEach(async () => {
	session?.close();
	session = undefined;
	await sim?.close();
	sim = undefined;
});

const stats = async (endpointId: string, route: string) =>
	((await sim!.call('GET', '/__sim/stats')).body.endpoints[endpointId]?.[route]?.requests as number) ?? 0;

/** Writes typed by a person into the real program in a real terminal, against a simulator the test can count requests at. */
describe.runIf(hasTmux)('writes from the dashboard in a real terminal', () => {
	test('type a job into the form and see it COMPLETE; cancel one with y; purge a queue by typing its name', async () => {
		sim = await startTestSim({
			endpoints: [
				{id: 'ep-echo', name: 'echo', workersMin: 1, workersMax: 1, flashBoot: true},
				{id: 'ep-parked', name: 'parked', workersMin: 0, workersMax: 0},
			],
		});
		for (let index = 0; index < 4; index++) {
			await sim.run('ep-parked', {delay_ms: 10});
		}

		const state = mkdtempSync(path.join(tmpdir(), 'podtop-tmux-writes-'));
		session = new TmuxSession(120, 36, ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`, '--management-api', 'graphql'], {
			RUNPOD_API_KEY: sim.apiKey,
			XDG_STATE_HOME: state,
		});
		await session.waitFor(/Endpoints \(2\)[\s\S]*echo/);

		// Submit: n, clear the example, type the input, Ctrl-S to review, y.
		session.send('n');
		await session.waitFor(/New job on echo/);
		session.send(...Array.from({length: 40}, () => 'BSpace'));
		session.type('{"payload": "typed in tmux", "delay_ms": 300');
		let screen = await session.waitFor(/is not valid JSON/);
		expect(screen).toMatch(/\[ Send ] +\/run · fix the input/);
		session.type('}');
		await session.waitFor(/valid JSON[\s\S]*\/run · \d+ B of 10 MB/);
		session.send('C-s');
		await session.waitFor(/Send this job to echo \(\/run · \d+ B of 10 MB\)\? y\/N/);
		session.send('y');
		screen = await session.waitFor(/Job \S+ on ep-echo[\s\S]*COMPLETED[\s\S]*"payload": "typed in tmux"/);
		expect(await stats('ep-echo', 'run')).toBe(1);

		// Cancel: a long job from the same form (its draft kept), then c and y in its job view.
		session.send('Escape');
		await session.waitFor(/Endpoints \(2\)/);
		session.send('n');
		await session.waitFor(/"payload": "typed in tmux"/);
		session.send('BSpace', 'BSpace', 'BSpace', 'BSpace');
		session.type('60000}');
		session.send('C-s');
		await session.waitFor(/y\/N/);
		session.send('y');
		await session.waitFor(/IN_PROGRESS|IN_QUEUE/);
		session.send('c');
		await session.waitFor(/Cancel job \S+ on echo\? y\/N/);
		session.send('y');
		screen = await session.waitFor(/CANCELLED/);
		expect(screen).toMatch(/done: cancel job/);

		// Purge: the wrong name sends nothing; the right one removes the four queued jobs.
		session.send('Escape');
		await session.waitFor(/Endpoints \(2\)/);
		session.send('j');
		await waitFor(async () => (await sim!.call('GET', '/v2/ep-parked/health')).status === 200, 5000);
		await session.waitFor(/parked(?: +\d+){5} +0-0 +4/);
		session.send('P');
		await session.waitFor(/Purge 4 queued job\(s\) from the queue of parked\? Running jobs are untouched\.[\s\S]*Type "parked" to confirm:/);
		session.type('park');
		session.send('Enter');
		await session.waitFor(/not sent: "park" does not match "parked"/);
		expect(await stats('ep-parked', 'purge-queue')).toBe(0);
		// The dialog is still open: the name typed again replaces what was refused.
		session.type('parked');
		session.send('Enter');
		await session.waitFor(/purged: 4 queued job\(s\) removed from parked; running jobs untouched/);
		expect(await stats('ep-parked', 'purge-queue')).toBe(1);

		session.send('q');
		await session.waitFor(/PODTOP-EXIT 0/);
		const audit = readFileSync(path.join(state, 'podtop', 'audit.jsonl'), 'utf8')
			.trim()
			.split('\n')
			.map(line => JSON.parse(line) as {operation: string; outcome: string});
		expect(audit.map(entry => `${entry.operation} ${entry.outcome}`)).toEqual(['job.submit ok', 'job.submit ok', 'job.cancel ok', 'endpoint.purge-queue ok']);
		expect(readFileSync(path.join(state, 'podtop', 'audit.jsonl'), 'utf8')).not.toContain(sim.apiKey);
	}, 60_000);
});

describe.runIf(hasTmux)('fleet writes in a real terminal', () => {
	test('a pod stopped and resumed; an endpoint scaled with :scale, then deleted by its typed name', async () => {
		sim = await startTestSim({
			graphqlRate: 1000,
			podCount: 0,
			endpoints: [{id: 'ep-doomed', name: 'doomed', workersMin: 1, workersMax: 2}],
		});
		const types = (await gql(sim, '{ gpuTypes { id lowestPrice(input: {gpuCount: 1}) { stockStatus } } }')).body.data.gpuTypes as Array<{
			id: string;
			lowestPrice: {stockStatus: string | null};
		}>;
		const plenty = types.find(type => type.lowestPrice.stockStatus === 'High')!;
		const deployed = await gql(sim, 'mutation Deploy($input: PodFindAndDeployOnDemandInput!) { podFindAndDeployOnDemand(input: $input) { id } }', {
			variables: {input: {name: 'tmux-pod', gpuTypeId: plenty.id, gpuCount: 1, imageName: 'x'}},
		});
		const podId = deployed.body.data.podFindAndDeployOnDemand.id as string;
		const statusOf = async () =>
			((await gql(sim!, `{ pod(input: {podId: "${podId}"}) { desiredStatus } }`)).body.data.pod as {desiredStatus: string}).desiredStatus;
		const state = mkdtempSync(path.join(tmpdir(), 'podtop-tmux-fleet-'));
		session = new TmuxSession(120, 36, ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`, '--management-api', 'graphql'], {
			RUNPOD_API_KEY: sim.apiKey,
			XDG_STATE_HOME: state,
		});
		await session.waitFor(/Endpoints \(1\)[\s\S]*doomed/);

		session.send('2');
		await session.waitFor(/Pods \(1\)[\s\S]*tmux-pod +1× .* RUNNING/);
		session.send('x');
		await session.waitFor(/Stop pod tmux-pod\? Its container disk is wiped; its volume is kept\. y\/N/);
		session.send('y');
		await session.waitFor(/tmux-pod +1× .* EXITED/);
		expect(await statusOf()).toBe('EXITED');
		session.send('u');
		await session.waitFor(/Resume pod tmux-pod[\s\S]*GPUs +1/);
		session.send('C-s');
		await session.waitFor(/Resume pod tmux-pod with 1 GPU\(s\) = \$[\d.]+\/h\? y\/N/);
		session.send('y');
		await session.waitFor(/tmux-pod +1× .* (RUNNING|STARTING)/);
		expect(await statusOf()).toBe('RUNNING');

		session.send('1');
		await session.waitFor(/Endpoints \(1\)/);
		session.send(':');
		session.type('scale 0 0');
		session.send('Enter');
		await session.waitFor(/Scale doomed to 0–0 workers\? y\/N/);
		session.send('y');
		await session.waitFor(/do{2}med(?: +\d+){5} +0-0/);
		session.send('C-d');
		await session.waitFor(/Delete endpoint doomed\? Its jobs and workers go with it\.[\s\S]*Type "doomed" to confirm:/);
		session.type('doomed');
		session.send('Enter');
		await session.waitFor(/done: delete endpoint doomed \(ep-doomed\)/);
		await session.waitFor(/Endpoints \(0\)/);
		session.send('q');
		await session.waitFor(/PODTOP-EXIT 0/);
		const audit = readFileSync(path.join(state, 'podtop', 'audit.jsonl'), 'utf8');
		expect(
			audit
				.trim()
				.split('\n')
				.map(line => (JSON.parse(line) as {operation: string}).operation),
		).toEqual(['pod.stop', 'pod.resume', 'endpoint.scale', 'endpoint.delete']);
	}, 60_000);

	test('the deploy wizard: d on a GPU type, the image typed, reviewed with its $/h, the new pod selected', async () => {
		sim = await startTestSim({graphqlRate: 1000, podCount: 0, endpoints: []});
		const state = mkdtempSync(path.join(tmpdir(), 'podtop-tmux-deploy-'));
		session = new TmuxSession(120, 36, ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`, '--management-api', 'graphql'], {
			RUNPOD_API_KEY: sim.apiKey,
			XDG_STATE_HOME: state,
		});
		await session.waitFor(/Endpoints \(0\)/);
		session.send('3');
		await session.waitFor(/GPUs \(20\)[\s\S]*L4/);
		session.send('/');
		// The filter matches the type's name as shown (L4), not its id (NVIDIA L4).
		session.type('^L4$');
		session.send('Enter');
		await session.waitFor(/GPUs \(1\/20\)/);
		session.send('d');
		await session.waitFor(/Deploy a pod on L4/);
		session.send('Tab', 'Tab', 'Tab');
		session.type('runpod/pytorch:2.4');
		await session.waitFor(/\[ Send ] +1× L4 · all cloud · on demand · \$[\d.]+\/h/);
		session.send('C-s');
		await session.waitFor(/Deploy 1× L4 · all cloud · on demand · \$[\d.]+\/h\? It bills from the moment it runs\. y\/N/);
		session.send('y');
		await session.waitFor(/Pods \(1\)[\s\S]*1× L4 +(RUNNING|STARTING)/);
		const {pods} = (await gql(sim, '{ myself { pods { imageName } } }')).body.data.myself;
		expect(pods).toEqual([{imageName: 'runpod/pytorch:2.4'}]);
		session.send('q');
		await session.waitFor(/PODTOP-EXIT 0/);
	}, 60_000);
});

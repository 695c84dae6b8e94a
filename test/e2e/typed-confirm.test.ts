import {mkdtempSync, readFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, test} from 'vitest';
import {gql} from '../helpers/graphql-client.js';
import {startTestSim, type TestSim} from '../helpers/sim-client.js';
import {hasTmux, TmuxSession} from '../helpers/tmux.js';

let session: TmuxSession | undefined;
let sim: TestSim | undefined;
afterEach(async () => {
	session?.close();
	session = undefined;
	await sim?.close();
	sim = undefined;
});

const purges = async () => ((await sim!.call('GET', '/__sim/stats')).body.endpoints['ep-parked']?.['purge-queue']?.requests as number | undefined) ?? 0;

const auditOf = (state: string) =>
	readFileSync(path.join(state, 'podtop', 'audit.jsonl'), 'utf8')
		.trim()
		.split('\n')
		.map(line => (JSON.parse(line) as {operation: string}).operation);

/** A new user's answers to "type the name" in a real terminal: a wrong one never closes the dialog, and its keys never reach the dashboard. */
describe.runIf(hasTmux)('typed confirmations in a real terminal', () => {
	test('P on an endpoint: a wrong name and Enter keep the dialog open and send nothing; the right name purges once', async () => {
		sim = await startTestSim({
			endpoints: [
				{id: 'ep-echo', name: 'echo', workersMin: 0, workersMax: 1},
				{id: 'ep-parked', name: 'parked', workersMin: 0, workersMax: 0},
			],
		});
		for (let index = 0; index < 4; index++) {
			await sim.run('ep-parked', {delay_ms: 10});
		}

		const state = mkdtempSync(path.join(tmpdir(), 'podtop-tmux-confirm-'));
		session = new TmuxSession(120, 36, ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`, '--management-api', 'graphql'], {
			RUNPOD_API_KEY: sim.apiKey,
			XDG_STATE_HOME: state,
		});
		await session.waitFor(/Endpoints \(2\)[\s\S]*echo/);
		session.send('j');
		await session.waitFor(/parked(?: +\d+){5} +0-0 +4/);
		session.send('P');
		let screen = await session.waitFor(/Type "parked" to confirm:/);
		expect(screen).toMatch(/Purge 4 queued job\(s\) from the queue of parked\? Running jobs are untouched\./);
		expect(screen).toMatch(/✗ does not match yet/);

		// A wrong name and Enter: the dialog stays, says why, and nothing leaves the process.
		session.type('park');
		await session.waitFor(/Type "parked" to confirm: park/);
		session.send('Enter');
		screen = await session.waitFor(/✗ not sent: "park" does not match "parked"\./);
		expect(screen).toMatch(/Type "parked" to confirm: park/);
		expect(screen).toMatch(/Enter confirms once the name matches · Backspace edits · Esc cancels/);
		expect(await purges()).toBe(0);

		// The name typed again: its `e` would open the edit form, its `d`… every key goes into the field.
		session.type('parked');
		screen = await session.waitFor(/✓ matches "parked": Enter confirms/);
		expect(screen).toMatch(/Type "parked" to confirm: parked/);
		expect(screen).not.toMatch(/Edit endpoint|New job on/);
		expect(await purges()).toBe(0);
		session.send('Enter');
		screen = await session.waitFor(/purged: 4 queued job\(s\) removed from parked; running jobs untouched/);
		expect(screen).not.toMatch(/to confirm:/);
		expect(await purges()).toBe(1);

		session.send('q');
		await session.waitFor(/PODTOP-EXIT 0/);
		expect(auditOf(state)).toEqual(['endpoint.purge-queue']);
		expect(await purges()).toBe(1);
	}, 60_000);

	test('Ctrl-D on a pod with --ascii and NO_COLOR: "y" and Enter is refused in words and an ASCII mark; the typed name terminates it', async () => {
		sim = await startTestSim({graphqlRate: 1000, podCount: 0, endpoints: []});
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
			((await gql(sim!, `{ pod(input: {podId: "${podId}"}) { desiredStatus } }`)).body.data.pod as {desiredStatus: string} | null)?.desiredStatus;
		const state = mkdtempSync(path.join(tmpdir(), 'podtop-tmux-confirm-'));
		const raw = path.join(state, 'terminal.raw');
		session = new TmuxSession(100, 30, ['--ascii', '--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`, '--management-api', 'graphql'], {
			RUNPOD_API_KEY: sim.apiKey,
			XDG_STATE_HOME: state,
			NO_COLOR: '1',
		});
		session.recordTo(raw);
		await session.waitFor(/Endpoints \(0\)/);
		session.send('2');
		await session.waitFor(/Pods \(1\)[\s\S]*tmux-pod .* RUN/);
		session.send('C-d');
		let screen = await session.waitFor(/Type "tmux-pod" to confirm:/);
		expect(screen).toMatch(/Terminate pod tmux-pod\? Its volume is lost for good\./);
		expect(screen).toMatch(/^\+-{98}\+$/m);
		expect(screen).toMatch(/\| x does not match yet +\|/);

		// The y/N habit: y and Enter. Refused and said so; the pod still runs.
		session.type('y');
		session.send('Enter');
		screen = await session.waitFor(/\| x not sent: this asks for the name, not "y"\./);
		// At 100 columns the sentence wraps inside the border.
		expect(screen.replaceAll(/ *\|\n\| */g, ' ')).toMatch(/Type "tmux-pod" \(it replaces this\), or Esc to cancel\./);
		expect(screen).toMatch(/Type "tmux-pod" to confirm: y/);
		expect(await statusOf()).toBe('RUNNING');

		session.type('tmux-pod');
		screen = await session.waitFor(/\| \+ matches "tmux-pod": Enter confirms +\|/);
		expect(screen).toMatch(/Type "tmux-pod" to confirm: tmux-pod/);
		expect(await statusOf()).toBe('RUNNING');
		session.send('Enter');
		await session.waitFor(/done: terminate pod/);
		expect(await statusOf()).toBeUndefined();
		session.send('q');
		await session.waitFor(/PODTOP-EXIT 0/);
		expect(auditOf(state)).toEqual(['pod.terminate']);
		// NO_COLOR: what reached the terminal sets no foreground or background colour.
		const written = readFileSync(raw, 'utf8');
		expect(written).toContain('Type "tmux-pod" to confirm:');
		expect(written).not.toMatch(/\u001B\[(?:[\d;]*;)?(?:3[0-7]|4[0-7]|9[0-7]|10[0-7]|38;5|48;5)(?:;[\d;]*)?m/);
	}, 60_000);
});

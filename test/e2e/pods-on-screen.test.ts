import {mkdtempSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, describe, expect, test} from 'vitest';
import {startTestSim, type TestSim} from '../helpers/sim-client.js';
import {hasTmux, TmuxSession} from '../helpers/tmux.js';

let session: TmuxSession | undefined;
let sim: TestSim | undefined;
afterAll(async () => {
	session?.close();
	await sim?.close();
});

type GraphqlStats = Record<string, {requests: number} | undefined>;
const graphqlStats = async () => ((await sim!.call('GET', '/__sim/stats')).body.endpoints.graphql ?? {}) as GraphqlStats;

/** The Pods pane of a long list in a real terminal: the rows on screen are read by id between the list's slower polls. */
describe.runIf(hasTmux)('the rows on screen of a long pod list, in a real terminal', () => {
	test('700 pods shown: the whole list every 7 s, the rows on screen asked for by id in between', async () => {
		sim = await startTestSim({podCount: 700, graphqlRate: 100});
		const state = mkdtempSync(path.join(tmpdir(), 'podtop-tmux-pods-'));
		session = new TmuxSession(120, 36, ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`, '--management-api', 'graphql', '--no-history'], {
			RUNPOD_API_KEY: sim.apiKey,
			XDG_STATE_HOME: state,
		});
		await session.waitFor(/Endpoints \(\d+\)/);
		session.send('2');
		await session.waitFor(/Pods \(700\)/);
		await sim.call('POST', '/__sim/stats/reset');
		await new Promise(resolve => setTimeout(resolve, 12_500));
		const stats = await graphqlStats();
		// 12.5 s: one or two whole lists (700 pods at 10 ms a pod), and the rows on screen read by id between them.
		expect(stats['operation:PodtopPods']?.requests).toBeGreaterThanOrEqual(1);
		expect(stats['operation:PodtopPods']?.requests).toBeLessThanOrEqual(2);
		expect(stats['operation:PodtopPodsById']?.requests).toBeGreaterThanOrEqual(1);
		expect(session.screen()).toMatch(/Pods \(700\)/);
		session.send('q');
		await session.waitFor(/PODTOP-EXIT 0/);
	}, 60_000);
});

import {afterEach, describe, expect, test} from 'vitest';
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

/** The simulator's count of requests to one operation (an endpoint's, or GraphQL's `request`), so that lateness is counted in polls, not seconds. */
const requests = async (where: string, operation: string) =>
	((await sim!.call('GET', '/__sim/stats')).body.endpoints[where]?.[operation]?.requests ?? 0) as number;

describe.runIf(hasTmux)('the dashboard under injected faults, in a real terminal', () => {
	test.each([
		['503s', {kind: 'status', status: 503}],
		['resets', {kind: 'reset'}],
		['malformed answers', {kind: 'malformed'}],
		['truncated answers', {kind: 'truncated'}],
	])(
		'%s on /health: marked stale by the first failing poll, last data kept, recovered by the first good poll once cleared',
		async (_name, fault) => {
			sim = await startTestSim({endpoints: [{id: 'ep', name: 'steady', workersMin: 1, workersMax: 1, flashBoot: true}]});
			session = new TmuxSession(120, 30, ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`, '--management-api', 'graphql'], {
				RUNPOD_API_KEY: sim.apiKey,
			});
			const healthy = await session.waitFor(/steady +0 +1 +0 +0 +0 +1-1/);
			expect(healthy).not.toMatch(/DEGRADED/);
			const before = await requests('ep', 'health');
			await sim.call('POST', '/__sim/faults', {body: {...fault, operation: 'health', share: 1}});
			const degraded = await session.waitFor(/DEGRADED: job API failing since/, 30_000);
			// Shown by the first failing poll and its one retry (the next poll is 5 s away; the screen is read every 0.1 s).
			expect((await requests('ep', 'health')) - before).toBeLessThanOrEqual(2);
			// The last known numbers stay, marked; they do not turn into zeros or blanks.
			expect(degraded).toMatch(/steady +0 +1 +0 +0 +0 +1-1/);
			const failing = await requests('ep', 'health');
			await sim.call('DELETE', '/__sim/faults');
			await session.waitFor(/data ≤/, 30_000);
			// Recovered by the first poll that succeeds (after, at most, the retry of a failing one in flight).
			expect((await requests('ep', 'health')) - failing).toBeGreaterThanOrEqual(1);
			expect((await requests('ep', 'health')) - failing).toBeLessThanOrEqual(2);
			expect(session.screen()).not.toMatch(/DEGRADED/);
			session.send('q');
			await session.waitFor(/PODTOP-EXIT 0/);
		},
		60_000,
	);

	test('GraphQL failing (503s, then resets) on the Pods pane: stale by the first failing poll, the pods kept, fresh again after', async () => {
		sim = await startTestSim({podCount: 6});
		session = new TmuxSession(120, 30, ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`, '--management-api', 'graphql'], {
			RUNPOD_API_KEY: sim.apiKey,
		});
		await session.waitFor(/Endpoints \(\d+\)/);
		session.send('2');
		const pods = await session.waitFor(/Pods \(6\)/);
		const names = [...pods.matchAll(/^(\S+)\s+\d+× /gm)].map(match => match[1]);
		expect(names.length, pods).toBeGreaterThan(2);
		for (const fault of [{kind: 'status', status: 503}, {kind: 'reset'}]) {
			const before = await requests('graphql', 'request');
			await sim.call('POST', '/__sim/faults', {body: {...fault, operation: 'graphql', share: 1}});
			const degraded = await session.waitFor(/DEGRADED: GraphQL failing since/, 30_000);
			// Shown by the first failing poll and its one retry (2 requests measured, for 503s and resets); a visible request
			// may go between a failed one and its retry: 3 at most.
			expect((await requests('graphql', 'request')) - before).toBeLessThanOrEqual(3);
			expect(degraded).toMatch(/Pods \(6\)/);
			for (const name of names) {
				expect(degraded).toContain(name);
			}

			await sim.call('DELETE', '/__sim/faults');

			await session.waitFor(/data ≤/, 30_000);
		}

		session.send('q');
		await session.waitFor(/PODTOP-EXIT 0/);
	}, 90_000);

	test('a 429 with Retry-After on /health: the dashboard asks that endpoint nothing until it has passed, then carries on', async () => {
		sim = await startTestSim({endpoints: [{id: 'ep', name: 'steady', workersMin: 1, workersMax: 1, flashBoot: true}]});
		session = new TmuxSession(120, 30, ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`, '--management-api', 'graphql'], {
			RUNPOD_API_KEY: sim.apiKey,
		});
		await session.waitFor(/steady +0 +1/);
		const healthCount = async () => ((await sim!.call('GET', '/__sim/stats')).body.endpoints.ep?.health?.requests ?? 0) as number;
		await sim.call('POST', '/__sim/faults', {body: {kind: 'status', status: 429, retryAfter: 8, operation: 'health', endpoint: 'ep', count: 1}});
		const before = await healthCount();
		// The next poll gets the 429…
		while ((await healthCount()) === before) {
			await new Promise(resolve => setTimeout(resolve, 100));
		}

		const refusedAt = performance.now();
		const refused = await healthCount();
		// …and nothing more goes to /health for the 8 s it was told to wait (two polls would have).
		await new Promise(resolve => setTimeout(resolve, 7000));
		expect(await healthCount()).toBe(refused);
		while ((await healthCount()) === refused) {
			await new Promise(resolve => setTimeout(resolve, 100));
		}

		// Both moments are seen by checking every 100 ms (and a stats round trip), so up to that late:
		// the 429 may have been counted up to 300 ms before `refusedAt`.
		expect(performance.now() - refusedAt).toBeGreaterThanOrEqual(8000 - 300);
		await session.waitFor(/data ≤/, 10_000);
		expect(session.screen()).toMatch(/steady +0 +1/);
		session.send('q');
		await session.waitFor(/PODTOP-EXIT 0/);
	}, 60_000);
});

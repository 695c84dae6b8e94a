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

/** The health poll of an endpoint on screen, in the dashboard's default cadence. */
const pollMs = 5000;

describe.runIf(hasTmux)('the dashboard under injected faults, in a real terminal', () => {
	test.each([
		['503s', {kind: 'status', status: 503}],
		['resets', {kind: 'reset'}],
		['malformed answers', {kind: 'malformed'}],
		['truncated answers', {kind: 'truncated'}],
	])(
		'%s on /health: marked stale within a poll and a second, last data kept, recovered within a poll once cleared',
		async (_name, fault) => {
			sim = await startTestSim({endpoints: [{id: 'ep', name: 'steady', workersMin: 1, workersMax: 1, flashBoot: true}]});
			session = new TmuxSession(120, 30, ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`], {RUNPOD_API_KEY: sim.apiKey});
			const healthy = await session.waitFor(/steady +0 +1 +0 +0 +0 +1-1/);
			expect(healthy).not.toMatch(/DEGRADED/);
			await sim.call('POST', '/__sim/faults', {body: {...fault, operation: 'health', share: 1}});
			let started = performance.now();
			const degraded = await session.waitFor(/DEGRADED: job API failing since/, 20_000);
			const staleAfter = performance.now() - started;
			// Within one poll and a second (measured 5.4–6.0 s), plus the tmux capture's own 0.1 s steps.
			expect(staleAfter).toBeLessThan(pollMs + 1500);
			// The last known numbers stay, marked; they do not turn into zeros or blanks.
			expect(degraded).toMatch(/steady +0 +1 +0 +0 +0 +1-1/);
			await sim.call('DELETE', '/__sim/faults');
			started = performance.now();
			await session.waitFor(/data ≤/, 20_000);
			const recoveredAfter = performance.now() - started;
			// Within one poll (measured 5.0–5.1 s, the last 0.1 s being the capture's step).
			expect(recoveredAfter).toBeLessThan(pollMs + 1000);
			expect(session.screen()).not.toMatch(/DEGRADED/);
			session.send('q');
			await session.waitFor(/PODTOP-EXIT 0/);
		},
		60_000,
	);
});

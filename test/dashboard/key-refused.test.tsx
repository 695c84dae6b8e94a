import {afterEach, describe, expect, test} from 'vitest';
import {App} from '../../source/dashboard/app.js';
import type {Engine} from '../../source/engine/create-engine.js';
import {selectKeyRefused} from '../../source/store/key-refused.js';
import {engineFor} from '../helpers/engine.js';
import {startTestSim, type TestSim} from '../helpers/sim-client.js';
import {frameMatching, renderWith, testStore} from '../helpers/ui-fixture.js';

let sim: TestSim | undefined;
let engine: Engine | undefined;
afterEach(async () => {
	await engine?.close();
	await sim?.close();
	engine = undefined;
	sim = undefined;
});

const refused =
	/the key is not accepted \(HTTP 401\): check RUNPOD_API_KEY or the profile's api_key in ~\/\.runpod\/config\.toml, then :profile <name> to try again/;

describe('a key the service refuses', () => {
	test('every pane says the key is not accepted and how to fix it, instead of loading… for ever', async () => {
		sim = await startTestSim({apiKey: 'rpa_THERIGHTKEY0000000000000000000000'});
		engine = await engineFor({url: sim.url, apiKey: 'rpa_AWRONGKEY00000000000000000000000'}, {history: {disabled: true}});
		engine.start();
		const {lastFrame, stdin} = renderWith({store: engine.store}, <App readOnly={false} />, {engine});
		// The Endpoints pane, then Pods and GPUs: each says it where its rows would be (wrapped at the width), and its title too.
		const unwrapped = () => lastFrame()?.replaceAll('\n', ' ');
		for (const [key, title] of [
			['1', 'Endpoints'],
			['2', 'Pods'],
			['3', 'GPUs'],
		] as const) {
			stdin.write(key);
			const shown = await frameMatching(unwrapped, new RegExp(String.raw`${title} \(0\).*⚠ key not accepted \(HTTP 401\).*` + refused.source), 15_000);
			expect(shown).not.toContain('loading…');
		}
	}, 60_000);

	test('the refusal is kept by source, and cleared by that source’s next success', () => {
		const {store, writes} = testStore();
		expect(selectKeyRefused(store.getState())).toBeUndefined();
		writes.reportSource('graphql', 1, 'authentication failed (check the API key): endpoints: HTTP 401', 401);
		writes.reportSource('jobApi', 2, 'authentication failed (check the API key): health: HTTP 403', 403);
		expect(selectKeyRefused(store.getState())).toBe(401);
		// Another failure (a timeout) is no word on the key: the refusal stays until a success.
		writes.reportSource('graphql', 3, 'timed out: pods: no answer in time');
		expect(selectKeyRefused(store.getState())).toBe(401);
		writes.reportSource('graphql', 4);
		expect(selectKeyRefused(store.getState())).toBe(403);
		writes.reportSource('jobApi', 5);
		expect(selectKeyRefused(store.getState())).toBeUndefined();
	});
});

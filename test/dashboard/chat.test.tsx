import {afterEach, expect, test} from 'vitest';
import {App} from '../../source/dashboard/app.js';
import type {Engine} from '../../source/engine/create-engine.js';
import {engineFor, simStats} from '../helpers/engine.js';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';
import {frameMatching, renderWith, tick} from '../helpers/ui-fixture.js';

let sim: TestSim | undefined;
let engine: Engine | undefined;
afterEach(async () => {
	await engine?.close();
	await sim?.close();
});

test('on a language model, the test job offers a chat over /compat: it streams into the job view with tokens per second, sent once', async () => {
	sim = await startTestSim({speed: 20, endpoints: [{id: 'ep-llm', name: 'llama', worker: 'text-generation', workersMin: 1, workersMax: 1, flashBoot: true}]});
	engine = await engineFor(sim, {poll: ['endpoints', 'jobs'], budget: {graphqlPerWindow: 50}});
	engine.start();
	const {lastFrame, stdin} = renderWith({store: engine.store}, <App readOnly={false} />, {engine});
	await frameMatching(lastFrame, /llama/);
	stdin.write('t');
	await frameMatching(lastFrame, /Send a test job to llama\? y\/N · c: a chat over \/compat instead \(language models\)/);
	stdin.write('c');
	await frameMatching(lastFrame, /Chat over \/compat chat-\S+ on ep-llm/);
	await waitFor(() => (lastFrame() ?? '').includes('COMPLETED'), 15_000);
	const frame = lastFrame()!;
	expect(frame).toMatch(/throughput \d+(\.\d)? tok\/s/);
	expect(frame).toMatch(/tokens \d+ in \/ \d+ out/);
	expect(frame).toMatch(/\b(model|tokens|GPUs|fleet|worker)\b/);
	const stats = await simStats(sim);
	expect(stats['ep-llm']!.compat!.requests).toBe(2);
	expect(stats['ep-llm']!.run).toBeUndefined();
	// A chat is not polled: no /status or /stream for it.
	await tick(300);
	expect((await simStats(sim))['ep-llm']!.status).toBeUndefined();
}, 30_000);

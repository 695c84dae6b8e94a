import {describe, expect, test, vi} from 'vitest';
import {App} from '../../source/app.js';
import type {ScheduledApi} from '../../source/poll/scheduled-api.js';
import {frameMatching, health, renderWith, testStore, tick} from '../helpers/ui-fixture.js';

function filledStore() {
	const store = testStore();
	const {actions} = store.getState();
	actions.setEndpoints([{id: 'ep-llm', name: 'llama-vllm', workersMin: 1, workersMax: 5, gpuIds: 'ADA_24', scalerType: 'QUEUE_DELAY', scalerValue: 4, idleTimeout: 30, locations: 'US'}, {id: 'ep-echo', name: 'echo', workersMin: 0, workersMax: 1}], 0);
	actions.setHealth('ep-llm', health({inQueue: 3}), 0);
	actions.setHealth('ep-echo', health({inQueue: 0}), 0);
	actions.setPods([{id: 'p1', name: 'trainer', desiredStatus: 'RUNNING', gpuCount: 1, machine: {gpuDisplayName: 'H100'}, runtime: {gpus: [{gpuUtilPercent: 95}]}}], 0);
	actions.setGpuTypes([{id: 'NVIDIA L4', displayName: 'L4', lowestPrice: {stockStatus: 'Low', maxUnreservedGpuCount: 2}}], 0);
	actions.reportSource('jobApi', Date.now());
	actions.reportSource('graphql', Date.now());
	return store;
}

const keys = {tab: '\t', enter: '\r', escape: '\u001B', down: '\u001B[B', ctrlC: '\u0003'};

describe('App', () => {
	test('header: LIVE, the host, the key only as a fingerprint', async () => {
		const {lastFrame} = renderWith(filledStore(), <App freshnessBound="≤5s"/>);
		await tick();
		const header = lastFrame()!.split('\n')[0]!;
		expect(header).toMatch(/podtop +LIVE +api\.runpod\.ai │ key ••••1a2b/);
		expect(header).toMatch(/data ≤5s/);
	});

	test('Tab and 1/2/3 switch panes; the store learns which pane is visible (hidden panes poll slower)', async () => {
		const store = filledStore();
		const {lastFrame, stdin} = renderWith(store, <App freshnessBound="≤5s"/>);
		await frameMatching(lastFrame, /Endpoints \(2\)/);
		stdin.write(keys.tab);
		await frameMatching(lastFrame, /Pods \(1\)/);
		await tick();
		expect(store.getState().ui.visiblePane).toBe('pods');
		stdin.write('3');
		await frameMatching(lastFrame, /GPUs \(1\)/);
		await tick();
		expect(store.getState().ui.visiblePane).toBe('gpus');
	});

	test('/ filters, Esc clears; ? opens help; : runs commands', async () => {
		const {lastFrame, stdin} = renderWith(filledStore(), <App freshnessBound="≤5s"/>);
		await tick();
		stdin.write('/');
		await tick();
		stdin.write('echo');
		await frameMatching(lastFrame, /\/echo/);
		stdin.write(keys.enter);
		await frameMatching(lastFrame, /Endpoints \(1\/2\) \/echo/);
		stdin.write(keys.escape);
		await frameMatching(lastFrame, /Endpoints \(2\)/);
		stdin.write('?');
		await frameMatching(lastFrame, /Keys \(Esc or \? to close\)/);
		stdin.write(keys.escape);
		await tick();
		stdin.write(':');
		await tick();
		stdin.write('gp');
		await tick();
		stdin.write('\t');
		await frameMatching(lastFrame, /:gpus/);
		stdin.write(keys.enter);
		await frameMatching(lastFrame, /GPUs \(1\)/);
		stdin.write(':');
		await tick();
		stdin.write('frobnicate');
		await tick();
		stdin.write(keys.enter);
		await frameMatching(lastFrame, /unknown command ":frobnicate"/);
	});

	test('Enter drills into an endpoint; t sends a test job and opens its stream; Esc goes back', async () => {
		const store = filledStore();
		const run = vi.fn(async () => ({id: 'job-42', status: 'IN_QUEUE'}));
		const {lastFrame, stdin} = renderWith(store, <App freshnessBound="≤5s"/>, {api: {run} as unknown as ScheduledApi});
		await tick();
		stdin.write('j');
		await tick();
		stdin.write(keys.enter);
		await frameMatching(lastFrame, /llama-vllm \(ep-llm\)/);
		expect(lastFrame()).toMatch(/pools ADA_24 ×1 · scaler QUEUE_DELAY 4 · idle timeout 30s · workers 1–5 · locations US/);
		stdin.write('t');
		await tick(50);
		expect(run).toHaveBeenCalledWith('ep-llm', expect.objectContaining({input: expect.any(Object)}));
		expect(lastFrame()).toMatch(/Job job-42 on ep-llm/);
		await tick(50);
		expect(store.getState().jobs.byKey.get('ep-llm/job-42')?.follow).toBe(true);
		stdin.write(keys.escape);
		await frameMatching(lastFrame, /Tracked jobs \(1\)/);
		await tick(50);
		expect(store.getState().jobs.byKey.get('ep-llm/job-42')?.follow).toBe(false);
		stdin.write(keys.escape);
		await frameMatching(lastFrame, /Endpoints \(2\)/);
	});

	test('a failing source raises the degraded banner', async () => {
		const store = filledStore();
		store.getState().actions.reportSource('graphql', Date.now(), 'network error: ECONNREFUSED');
		const {lastFrame} = renderWith(store, <App freshnessBound="≤5s"/>);
		await tick();
		expect(lastFrame()!.split('\n')[1]).toMatch(/⚠ DEGRADED: GraphQL failing since (now|\d+s) \(network error: ECONNREFUSED\) — showing last known data/);
	});

	test(':job opens a job view straight away; keys never wait for a poll', async () => {
		const store = filledStore();
		const {lastFrame, stdin} = renderWith(store, <App freshnessBound="≤5s"/>);
		await tick();
		stdin.write(':');
		await tick();
		stdin.write('job ep-echo abc-123');
		await tick();
		stdin.write(keys.enter);
		await frameMatching(lastFrame, /Job abc-123 on ep-echo/);
		expect(lastFrame()).toMatch(/waiting for output…/);
		await tick(50);
		expect(store.getState().ui.visiblePane).toBe('job');
	});
});

import {describe, expect, test} from 'vitest';
import {coldStartRuleShort} from '../../source/lib/cold-start.js';
import {EndpointDetail} from '../../source/panes/endpoint-detail.js';
import {EndpointsPane} from '../../source/panes/endpoints-pane.js';
import {health, renderWith, testStore, tick} from '../helpers/ui-fixture.js';

const hour = 3_600_000;

/** Two endpoints polled, the first probed: twenty probes in the last hour (one of them slow and cold), and one slow probe two hours before. */
function probedStore(configured: boolean) {
	const store = testStore();
	const {writes} = store;
	writes.setEndpoints(
		[
			{id: 'ep1', name: 'llama-vllm', workersMin: 1, workersMax: 5},
			{id: 'ep2', name: 'sdxl', workersMin: 0, workersMax: 2},
		],
		0,
	);
	writes.setHealth('ep1', health({inQueue: 4}), 0);
	writes.setHealth('ep2', health({inQueue: 0}), 0);
	writes.setProbesConfigured(configured);
	if (configured) {
		const now = 10 * hour;
		writes.addProbes([
			{endpointId: 'ep1', probe: {at: now - 2 * hour, jobId: 'old', delayMs: 90_000, executionMs: 90_000, cold: true, outcome: 'ok'}},
			...Array.from({length: 20}, (_, index) => ({
				endpointId: 'ep1',
				probe: {
					at: now - hour + (index + 1) * 60_000,
					jobId: `j${index}`,
					delayMs: index === 19 ? 9000 : 200,
					executionMs: 1000 + index * 10,
					cold: index === 19,
					outcome: 'ok' as const,
				},
			})),
		]);
	}

	return store;
}

describe('the probes in the Endpoints pane', () => {
	test('with a probe rule, P95 and COLD% over the window: the 19th of 20 times, one cold in twenty; an endpoint not probed shows –', async () => {
		const store = probedStore(true);
		const {lastFrame, view} = renderWith(store, <EndpointsPane width={160} height={8} />, {view: {columns: 160, rows: 40}});
		await tick();
		let frame = lastFrame()!;
		expect(frame).toMatch(/ETA +WHY +P95 COLD%/);
		// Nearest rank: the 19th of 20 totals, 200 + 1180 ms; the probe two hours back is out of the 1h window.
		expect(frame).toMatch(/llama-vllm .* 1\.4s +5%/);
		expect(frame).toMatch(/sdxl .* – +–/);
		// A wider window takes in the old, slow, cold one: the 20th of 21 is now the slow one of the hour (9 s + 1.19 s), two of 21 cold.
		view.dispatch({type: 'window', step: 1});
		await tick();
		frame = lastFrame()!;
		expect(frame).toMatch(/llama-vllm .* 10\.2s +10%/);
	});

	test('compact too; and no probe rule, no column', async () => {
		const compact = renderWith(probedStore(true), <EndpointsPane width={100} height={8} />, {view: {columns: 100, rows: 40}});
		await tick();
		expect(compact.lastFrame()).toMatch(/NAME▲ +WORKERS +QUEUE PROG +RATE FAIL% TREND +ETA +WHY +P95 COLD%/);
		const none = renderWith(probedStore(false), <EndpointsPane width={160} height={8} />, {view: {columns: 160, rows: 40}});
		await tick();
		expect(none.lastFrame()).toMatch(/ETA +WHY\s*\n/);
		expect(none.lastFrame()).not.toMatch(/P95|COLD%/);
	});

	test("the endpoint's details say the probes' P95 (total, delay, execution), cold share and count over its window", async () => {
		const {lastFrame} = renderWith(probedStore(true), <EndpointDetail endpointId='ep1' width={160} height={24} />, {view: {columns: 160, rows: 40}});
		await tick();
		expect(lastFrame()).toContain(`probes P95 1.4s (delay 200ms, execution 1.2s) · cold 5% (${coldStartRuleShort}) · 20 in 1h`);
		const other = renderWith(probedStore(true), <EndpointDetail endpointId='ep2' width={160} height={24} />, {view: {columns: 160, rows: 40}});
		await tick();
		expect(other.lastFrame()).toContain('probes: none in 1h');
		const none = renderWith(probedStore(false), <EndpointDetail endpointId='ep1' width={160} height={24} />, {view: {columns: 160, rows: 40}});
		await tick();
		expect(none.lastFrame()).not.toContain('probes');
	});
});

import {describe, expect, test} from 'vitest';
import type {WorkerRecord} from '../../source/model/worker.js';
import {EndpointDetail} from '../../source/panes/endpoint-detail.js';
import {EndpointsPane} from '../../source/panes/endpoints-pane.js';
import {workersUnpublished} from '../../source/poll/workers-loop.js';
import {health, renderWith, testStore, tick} from '../helpers/ui-fixture.js';

const worker = (id: string, status: string, more: Partial<WorkerRecord> = {}): WorkerRecord => ({
	id,
	status,
	isStale: false,
	version: 1,
	gpuTypeId: 'NVIDIA L40',
	gpuCount: 1,
	dataCenterId: 'US-TX-3',
	uptimeSeconds: 30,
	startedAt: Date.UTC(2026, 10, 1, 12, 0, 0),
	...more,
});

/** `llava` crash-loops (its worker restarted between two reads, THROTTLED, unhealthy 0); `sdxl` is fine. */
function crashingStore() {
	const state = testStore();
	const {writes} = state;
	writes.setEndpoints(
		[
			{id: 'ep1', name: 'llava', gpuIds: 'ADA_48_PRO', workersMin: 1, workersMax: 3},
			{id: 'ep2', name: 'sdxl', workersMin: 0, workersMax: 2},
		],
		0,
	);
	writes.setGpuTypes([{id: 'NVIDIA L40', displayName: 'L40', pool: 'ADA_48_PRO', lowestPrice: {stockStatus: 'Low'}}], 0);
	const now = Date.now();
	writes.setHealth('ep1', health({inQueue: 4, inProgress: 0, running: 1}), now);
	writes.setHealth('ep2', health({inQueue: 0}), now);
	const read = (workers: WorkerRecord[], readAt: number) => {
		writes.setWorkers('ep1', {endpointId: 'ep1', endpointVersion: 1, workers, readAt});
	};

	read([worker('w-crashing', 'THROTTLED', {uptimeSeconds: 40}), worker('w-old\u001B[2Jevil', 'IDLE', {isStale: true, version: 0})], now - 10_000);
	read(
		[
			worker('w-crashing', 'THROTTLED', {uptimeSeconds: 2, startedAt: Date.UTC(2026, 10, 1, 12, 1, 0)}),
			worker('w-old\u001B[2Jevil', 'IDLE', {isStale: true, version: 0}),
			worker('w-new', 'RUNNING', {uptimeSeconds: 300}),
		],
		now,
	);
	writes.setRollout('ep1', {
		endpointId: 'ep1',
		endpointVersion: 1,
		inProgress: true,
		workersOnLatest: 2,
		workersTotal: 3,
		percentOnLatest: 66.7,
		releases: [{version: 1, source: 'MANUAL', diff: [{field: 'template.imageName', old: 'acme/llava:1', new: 'acme/llava:2\u001B]0;pwned\u0007'}]}],
	});
	return state;
}

describe("an endpoint's workers and its diagnosis on screen", () => {
	test('the Endpoints pane says why in a word, wide and compact', async () => {
		const wide = renderWith(crashingStore(), <EndpointsPane width={180} height={8} />, {view: {columns: 180, rows: 40}});
		await tick();
		expect(wide.lastFrame()).toMatch(/ETA +WHY/);
		expect(wide.lastFrame()).toMatch(/llava .* crash loop/);
		expect(wide.lastFrame()).not.toMatch(/sdxl .* (crash|limit|stale)/);
		const compact = renderWith(crashingStore(), <EndpointsPane width={80} height={8} />, {view: {columns: 80, rows: 24}});
		await tick();
		expect(compact.lastFrame()).toMatch(/llava .* crash/);
		for (const line of compact.lastFrame()!.split('\n')) {
			expect(line.length).toBeLessThanOrEqual(80);
		}
	});

	test('the details: the diagnosis in full with its figures, the rollout, the workers most troubled first; service text inert', async () => {
		const {lastFrame} = renderWith(crashingStore(), <EndpointDetail endpointId='ep1' width={200} height={40} />, {view: {columns: 200, rows: 40}});
		await tick();
		const frame = lastFrame()!;
		expect(frame).toContain('diagnosis: 4 jobs wait, none served for');
		expect(frame).toContain('crash loop: 1 worker restarted 1 time (uptime reset) in 15m00s · the service shows THROTTLED 1, IDLE 1, RUNNING 1, unhealthy 0');
		expect(frame).toContain('no capacity: 1 worker THROTTLED, waiting for a GPU; stock of ADA_48_PRO: L40 Low');
		expect(frame).toContain('stale release: 1 of 3 workers on v0, not the latest v1 (67 % on the latest, rolling out)');
		expect(frame).toMatch(/rollout: v1 · 67 % on the latest \(2 of 3\), rolling out · v1 \(MANUAL\) changed template.imageName acme\/llava:1 → acme\/llava:2/);
		expect(frame).toMatch(/WORKER +STATUS +RST +VER +GPU +DC +UPTIME +STARTED/);
		const rows = frame.split('\n').filter(line => /w-(crashing|old|new)/.test(line));
		expect(rows.map(line => /w-(crashing|old|new)/.exec(line)![1])).toEqual(['crashing', 'old', 'new']);
		expect(rows[0]).toMatch(/w-crashing +THROTTLED +1 +v1 +1× L40 +US-TX-3/);
		expect(rows[1]).toMatch(/stale v0/);
		// A short terminal keeps the details inside it: fewer worker rows, and the title still on top.
		const small = renderWith(crashingStore(), <EndpointDetail endpointId='ep1' width={78} height={20} />, {view: {columns: 80, rows: 24}});
		await tick();
		const lines = small.lastFrame()!.split('\n');
		expect(lines.length).toBeLessThanOrEqual(20);
		expect(lines[0]).toContain('llava (ep1)');
		expect(small.lastFrame()).toMatch(/Workers \(3, the [12] most troubled shown\)/);
		expect(frame).not.toMatch(/\u001B\[2J|\u001B]0;/);
	});

	test('over GraphQL the details say where the workers would be that GraphQL has none, and the diagnosis stands on /health', async () => {
		const state = testStore();
		state.writes.setEndpoints([{id: 'ep1', name: 'llava', workersMin: 0, workersMax: 2}], 0);
		state.writes.setHealth('ep1', health({inQueue: 3, inProgress: 0, running: 0, idle: 0}), Date.now());
		state.writes.setWorkersUnavailable(workersUnpublished);
		const {lastFrame} = renderWith(state, <EndpointDetail endpointId='ep1' width={200} height={40} />, {view: {columns: 200, rows: 40}});
		await tick();
		expect(lastFrame()).toContain(`(from /health alone: ${workersUnpublished})`);
		expect(lastFrame()).toContain(`workers: ${workersUnpublished}`);
		expect(lastFrame()).toContain('cold start: 1 worker initializing (for how long: workers not read)');
	});
});

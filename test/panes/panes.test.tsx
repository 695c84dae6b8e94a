import {describe, expect, test} from 'vitest';
import {asciiGlyphs} from '../../source/format/glyphs.js';
import {EndpointsPane} from '../../source/panes/endpoints-pane.js';
import {GpusPane} from '../../source/panes/gpus-pane.js';
import {JobView} from '../../source/panes/job-view.js';
import {PodsPane} from '../../source/panes/pods-pane.js';
import {defaultSort} from '../../source/view-state/view-state.js';
import {health, renderWith, testStore, tick} from '../helpers/ui-fixture.js';

const none = {key: undefined, index: 0};

const paneProps = (width = 120) => ({width, height: 12});
const atWidth = (columns: number) => ({view: {columns, rows: 40}});

describe('Endpoints pane', () => {
	test('one row per endpoint with workers, queue, throughput, failure rate and trend (wide)', async () => {
		const store = testStore();
		const actions = store.writes;
		actions.setEndpoints(
			[
				{id: 'ep1', name: 'llama-vllm', workersMin: 1, workersMax: 5},
				{id: 'ep2', name: 'sdxl', workersMin: 0, workersMax: 2},
			],
			0,
		);
		actions.setHealth('ep1', health({inQueue: 9, completed: 100, failed: 0}), 0);
		actions.setHealth('ep1', health({inQueue: 4, completed: 160, failed: 20}), 60_000);
		actions.setHealth('ep2', health({inQueue: 0}), 0);
		actions.reportSource('jobApi', 60_000);
		const {lastFrame} = renderWith(store, <EndpointsPane {...paneProps()} />);
		await tick();
		const frame = lastFrame()!;
		expect(frame).toMatch(/Endpoints \(2\)/);
		expect(frame).toMatch(/NAME▲ +RUN IDLE INIT THR UNH MIN-MAX QUEUE PROG +DONE +FAIL RETRY +RATE FAIL% QUEUE TREND +ETA/);
		expect(frame).toMatch(/llama-vllm +2 +1 +1 +0 +0 +1-5 +4 +2 +160 +20 +1 +80\/m +25%/);
		expect(frame).toMatch(/live/);
	});

	test('compact at 80 columns; an endpoint whose health fails is marked, not shown as zeros', async () => {
		const store = testStore();
		const actions = store.writes;
		actions.setEndpoints([{id: 'ep1', name: 'broken', workersMin: 0, workersMax: 1}], 0);
		actions.setHealthError('ep1', 'network error: ECONNREFUSED');
		actions.reportSource('jobApi', Date.now() - 3000, 'network error: ECONNREFUSED');
		const {lastFrame} = renderWith(store, <EndpointsPane {...paneProps(80)} />, atWidth(80));
		await tick();
		const frame = lastFrame()!;
		expect(frame).toMatch(/NAME▲ +WORKERS +QUEUE PROG +RATE FAIL% TREND +ETA/);
		expect(frame).toMatch(/broken +⚠ network error/);
		expect(frame).toMatch(/⚠ stale [34]s · network error/);
		expect(frame).not.toMatch(/broken +0\/1/);
	});

	test('the filter (regex, ! inverts) and the sort apply', async () => {
		const store = testStore();
		const actions = store.writes;
		actions.setEndpoints(
			['alpha', 'beta', 'gamma'].map(name => ({id: name, name})),
			0,
		);
		for (const [index, name] of ['alpha', 'beta', 'gamma'].entries()) {
			actions.setHealth(name, health({inQueue: index * 10}), 0);
		}

		const filtered = renderWith(store, <EndpointsPane {...paneProps()} />, {view: {filter: {endpoints: 'alpha|GAMMA', pods: '', gpus: '', events: ''}}});
		await tick();
		expect(filtered.lastFrame()).toMatch(/Endpoints \(2\/3\) \/alpha\|GAMMA/);
		expect(filtered.lastFrame()).not.toMatch(/beta/);
		const inverted = renderWith(store, <EndpointsPane {...paneProps()} />, {view: {filter: {endpoints: '!alpha', pods: '', gpus: '', events: ''}}});
		await tick();
		expect(inverted.lastFrame()).not.toMatch(/alpha +\d/);
		const byQueue = renderWith(store, <EndpointsPane {...paneProps()} />, {view: {sort: {...defaultSort, endpoints: {column: 7, descending: true}}}});
		await tick();
		const lines = byQueue.lastFrame()!.split('\n');
		expect(lines.findIndex(line => line.startsWith('gamma'))).toBeLessThan(lines.findIndex(line => line.startsWith('alpha')));
		expect(byQueue.lastFrame()).toMatch(/ QUEU▼ /);
	});
});

describe('Pods pane', () => {
	test('GPU type × count, per-GPU bars, utilisation, cost; stopped pods have no runtime figures', async () => {
		const store = testStore();
		store.writes.setPods(
			[
				{
					id: 'p1',
					name: 'trainer',
					desiredStatus: 'RUNNING',
					gpuCount: 2,
					costPerHr: 3.78,
					machine: {gpuDisplayName: 'A100 SXM'},
					runtime: {
						uptimeInSeconds: 7200,
						gpus: [
							{gpuUtilPercent: 100, memoryUtilPercent: 90},
							{gpuUtilPercent: 0, memoryUtilPercent: 10},
						],
						container: {cpuPercent: 40, memoryPercent: 50},
					},
				},
				{id: 'p2', name: 'parked', desiredStatus: 'EXITED', gpuCount: 1, costPerHr: 0.35, volumeInGb: 40, machine: {gpuDisplayName: 'A40'}, runtime: null},
				{id: 'p4', name: 'unsized', desiredStatus: 'EXITED', gpuCount: 1, costPerHr: 0.35, machine: {gpuDisplayName: 'A40'}, runtime: null},
				{
					id: 'p3',
					name: 'cpu-box',
					desiredStatus: 'RUNNING',
					gpuCount: 0,
					costPerHr: 0.081,
					machine: {gpuDisplayName: 'L4'},
					runtime: {uptimeInSeconds: 60, gpus: [], container: {cpuPercent: 12, memoryPercent: 30}},
				},
			],
			0,
		);
		const {lastFrame} = renderWith(store, <PodsPane {...paneProps()} />);
		await tick();
		const frame = lastFrame()!;
		// A 0-GPU pod: no GPU bars, no utilisation history, its CPU and memory still shown.
		expect(frame).toMatch(/cpu-box +CPU only +RUNNING +– +– +12% +30% +1m00s +\$0\.081\/h/);
		expect(frame).toMatch(/trainer +2× A100 SXM +RUNNING █▁ +50%.* 50% +40% +50% +2h00m +\$3\.78\/h/);
		// Stopped, a pod costs its volume (40 GB at $0.20/GB/month, 730 h), an estimate; of unknown size, unknown: never its running price.
		expect(frame).toMatch(/parked +1× A40 +EXITED(?: +–){5} +~\$0\.011\/h/);
		expect(frame).toMatch(/unsized +1× A40 +EXITED(?: +–){6}$/m);
		expect(frame).not.toContain('$0.35');
		// The title: the running pods' total, and the stopped ones' volumes.
		expect(frame).toContain('Pods (4) · 1h  running $3.86/h · stopped ~$0.011/h (1 unknown)');
	});

	test('2,000 pods render only the visible rows', async () => {
		const store = testStore();
		store.writes.setPods(
			Array.from({length: 2000}, (_, index) => ({
				id: `p${index}`,
				name: `pod-${String(index).padStart(4, '0')}`,
				desiredStatus: 'RUNNING',
				gpuCount: 1,
				machine: {gpuDisplayName: 'L4'},
				runtime: {gpus: [{gpuUtilPercent: index % 100}]},
			})),
			0,
		);
		const {lastFrame} = renderWith(store, <PodsPane {...paneProps()} />, {
			view: {selected: {endpoints: none, pods: {key: 'p1500', index: 0}, gpus: none, endpoint: none, workers: none, alerts: none}},
		});
		await tick();
		const frame = lastFrame()!;
		expect(frame.split('\n')).toHaveLength(12);
		expect(frame).toMatch(/pod-1500/);
		expect(frame).not.toMatch(/pod-0{4}/);
	});

	test('the filter finds pods by the fields their rows show (name, GPU, status), not by the id or image it hides; ^ starts a field; ! inverts', async () => {
		const store = testStore();
		store.writes.setPods(
			[
				{id: 'a1', name: 'trainer', imageName: 'axolotl/axolotl:main', desiredStatus: 'RUNNING', gpuCount: 1, machine: {gpuDisplayName: 'H100 SXM'}},
				{id: 'b2', name: 'notebook', imageName: 'runpod/pytorch:2.4', desiredStatus: 'EXITED', gpuCount: 1, machine: {gpuDisplayName: 'A40'}},
			],
			0,
		);
		const shown = async (filter: string) => {
			const {lastFrame} = renderWith(store, <PodsPane {...paneProps()} />, {view: {filter: {endpoints: '', pods: filter, gpus: '', events: ''}}});
			await tick();
			return lastFrame()!;
		};

		for (const filter of ['train', 'h100', '^tr', 'starting']) {
			const frame = await shown(filter);
			expect(frame, filter).toMatch(/Pods \(1\/2\)/);
			expect(frame, filter).toMatch(/trainer/);
			expect(frame, filter).not.toMatch(/notebook/);
		}

		// The image and the id are not on screen: they find nothing. A field's text never runs into the next one's.
		for (const filter of ['axolotl', 'a1', 'pytorch', 'er.*A40', '^100']) {
			expect(await shown(filter), filter).toMatch(/Pods \(0\/2\)/);
		}

		const inverted = await shown('!exited');
		expect(inverted).toMatch(/trainer/);
		expect(inverted).not.toMatch(/notebook/);
		expect(await shown('!')).toMatch(/Pods \(2\)/);
	});
});

describe('GPUs pane', () => {
	test('stock as symbol and word, the stock-share bar, ASCII when asked', async () => {
		const store = testStore();
		store.writes.setGpuTypes(
			[
				{
					id: 'NVIDIA L4',
					displayName: 'L4',
					memoryInGb: 24,
					securePrice: 0.43,
					communityPrice: 0.28,
					lowestPrice: {stockStatus: 'High', maxUnreservedGpuCount: 8, minimumBidPrice: 0.15, compliance: ['GDPR', 'ISO_IEC_27001', 'SOC_2_TYPE_2']},
				},
				{
					id: 'NVIDIA H100',
					displayName: 'H100 SXM',
					memoryInGb: 80,
					securePrice: 2.99,
					communityPrice: null,
					lowestPrice: {stockStatus: 'None', maxUnreservedGpuCount: 0, minimumBidPrice: 1.5},
				},
			],
			0,
		);
		const unicode = renderWith(store, <GpusPane {...paneProps()} />);
		await tick();
		expect(unicode.lastFrame()).toMatch(/stock ●●● High 1 +●●○ Medium 0 +●○○ Low 0 +○○○ None 1/);
		expect(unicode.lastFrame()).toMatch(/L4 +24G +\$0\.43 +\$0\.28 +\$0\.15 ●●● High +8/);
		expect(unicode.lastFrame()).toMatch(/H100 SXM +80G +\$2\.99 +– +\$1\.50 ○○○ None +0/);
		// The standards the offer is certified for (secure cloud), short; none shows a dash.
		expect(unicode.lastFrame()).toMatch(/L4 .* GDPR ISO27001 SOC2/);
		expect(unicode.lastFrame()).toMatch(/H100 SXM .* –\s*$/m);
		const ascii = renderWith(store, <GpusPane {...paneProps()} />, {glyphs: asciiGlyphs});
		await tick();
		expect(ascii.lastFrame()).toMatch(/\+{3} High/);
		expect(ascii.lastFrame()).toMatch(/--- None/);
		expect(ascii.lastFrame()).not.toMatch(/[●○█]/);
	});
});

describe('Job view', () => {
	test('status, timings, metrics, and output that cannot reach the terminal as escape sequences', async () => {
		const store = testStore();
		const actions = store.writes;
		const key = actions.trackJob('ep', 'job-1', {follow: true});
		actions.updateJob(key, {id: 'job-1', status: 'IN_PROGRESS', delayTime: 1200, workerId: 'w1'}, 1);
		actions.appendStream(
			key,
			'IN_PROGRESS',
			[
				{
					output: {text: ['Hello \u001B[2J\u001B]0;pwned\u0007 world\n']},
					metrics: {avg_gen_throughput: 88.5, gpu_kv_cache_usage: 0.42, input_tokens: 7, output_tokens: 19},
				},
			],
			2,
		);
		const {lastFrame} = renderWith(store, <JobView endpointId='ep' jobId='job-1' width={80} height={12} />);
		await tick();
		const frame = lastFrame()!;
		expect(frame).toMatch(/IN_PROGRESS · delay 1\.2s · execution – · worker w1/);
		expect(frame).toMatch(/throughput 88\.5 tok\/s · KV cache 42% · tokens 7 in \/ 19 out · chunks 1/);
		expect(frame).toContain('Hello ␛[2J␛]0;pwned^G world');
		expect(frame).not.toContain('\u001B[2J');
		expect(frame).not.toContain('\u0007');
	});

	test('a title longer than the view stays one row: the output starts right under the rule', async () => {
		const store = testStore();
		const id = 'sync-619c45f7-e347-4917-b08b-5e56e07cf058-u1';
		const key = store.writes.trackJob('black-forest-labs-flux-1-schnell', id, {follow: true});
		store.writes.updateJob(key, {id, status: 'COMPLETED', delayTime: 618, executionTime: 325, workerId: 'toqp5ua4kvxuvu', output: 'line one\nline two'}, 1);
		const {lastFrame} = renderWith(store, <JobView endpointId='black-forest-labs-flux-1-schnell' jobId={id} width={80} height={10} />);
		await tick();
		const lines = lastFrame()!.split('\n');
		expect(lines[0]).toMatch(/^Job sync-.+ended: completed$/);
		expect(lines[3]).toMatch(/^─+$/);
		expect(lines.slice(4, 6)).toEqual(['line one', 'line two']);
	});

	test('scrolling up pauses the follow and counts the unseen lines', async () => {
		const store = testStore();
		const actions = store.writes;
		const key = actions.trackJob('ep', 'job-2', {follow: true});
		actions.appendStream(key, 'IN_PROGRESS', [{output: Array.from({length: 40}, (_, index) => `line ${index}`).join('\n')}], 1);
		const following = renderWith(store, <JobView endpointId='ep' jobId='job-2' width={60} height={10} />);
		await tick();
		expect(following.lastFrame()).toMatch(/following/);
		expect(following.lastFrame()).toMatch(/line 39/);
		const paused = renderWith(store, <JobView endpointId='ep' jobId='job-2' width={60} height={10} />, {view: {jobEnd: 35}});
		await tick();
		expect(paused.lastFrame()).toMatch(/▼ 5 unseen lines · G to follow/);
		expect(paused.lastFrame()).toMatch(/line 34/);
		expect(paused.lastFrame()).not.toMatch(/line 39/);
	});
});

import {afterAll, afterEach, beforeAll, describe, expect, test} from 'vitest';
import {App} from '../../source/dashboard/app.js';
import type {Engine} from '../../source/engine/create-engine.js';
import {asciiGlyphs} from '../../source/format/glyphs.js';
import type {HistoryReader, SeriesQuery} from '../../source/history/history-types.js';
import {EndpointDetail} from '../../source/panes/endpoint-detail.js';
import {GpuDetail} from '../../source/panes/gpu-detail.js';
import {PodDetail} from '../../source/panes/pod-detail.js';
import {recordHistory, type Recorded} from '../helpers/recorded-history.js';
import {frameMatching, health, renderWith, testStore, tick} from '../helpers/ui-fixture.js';

const hour = 3_600_000;
const braille = /[\u2801-\u28FF]/;

/** Three hours recorded: the queue stood at 50 for the first two, then rose 0 → 19 every 20 minutes; stock High, then Low for the last hour. */
const script = {
	queue: (minute: number) => (minute < 120 ? 50 : minute % 20),
	completed: (minute: number) => (minute < 120 ? 6 : 30),
	failed: (minute: number) => (minute % 10 === 0 ? 6 : 0),
	running: (minute: number) => (minute < 120 ? 2 : 4),
	throttled: (minute: number) => (minute >= 170 ? 1 : 0),
	util: (minute: number, gpu: number) => (minute < 120 ? 90 : 20 + gpu * 30),
	stock: (minute: number) => (minute < 120 ? 'High' : 'Low'),
	bid: (minute: number) => (minute < 120 ? 1.5 : 1.75),
};

let recorded: Recorded;
const zone = process.env.TZ;
beforeAll(async () => {
	process.env.TZ = 'UTC';
	recorded = await recordHistory(script, {minutes: 180, everyMs: 30_000});
});
afterAll(() => {
	recorded.close();
	process.env.TZ = zone;
});

/** The value label at the top of a chart: the line under the chart's title, up to the plot. */
function topLabel(frame: string, title: RegExp): string | undefined {
	const lines = frame.split('\n');
	const index = lines.findIndex(line => title.test(line));
	const match = title.exec(lines[index] ?? '');
	const column = match?.index ?? 0;
	return index === -1 ? undefined : lines[index + 1]?.slice(column, column + 6).trim();
}

/** The time labels of the first axis line (HH:MM). */
const axisLabels = (frame: string) =>
	frame
		.split('\n')
		.find(line => /^ {6,}\d\d:\d\d/.test(line))
		?.match(/\d\d:\d\d/g) ?? [];

const minutesOf = (label: string) => Number(label.slice(0, 2)) * 60 + Number(label.slice(3));
const clockMinutes = (at: number) => new Date(at).getUTCHours() * 60 + new Date(at).getUTCMinutes();
/** How many minutes `label` is before `at` (on a 24-hour clock). */
const minutesBefore = (label: string, at: number) => (clockMinutes(at) - minutesOf(label) + 24 * 60) % (24 * 60);

/** An engine whose history answers only when the test says: each query waits in `gates` until released. */
function gatedEngine(reader: HistoryReader) {
	const gates: Array<{query: SeriesQuery; release: () => void}> = [];
	const gated: HistoryReader = {
		...reader,
		// A reader that answers later (the agent's, Prometheus'): none at once.
		seriesNow: undefined,
		series: async query =>
			new Promise(resolve => {
				gates.push({
					query,
					release() {
						resolve(reader.series(query));
					},
				});
			}),
	};
	const engine = {...recorded.engine, history: {...recorded.engine.history, reader: () => gated}} as unknown as Engine;
	return {engine, gates};
}

/** An engine whose history counts the range requests made of it. */
function countingEngine(reader: HistoryReader) {
	const queries: SeriesQuery[] = [];
	const counting: HistoryReader = {
		...reader,
		async series(query) {
			queries.push(query);
			return reader.series(query);
		},
	};
	const engine = {...recorded.engine, history: {...recorded.engine.history, reader: () => counting}} as unknown as Engine;
	return {engine, queries};
}

const detailView = {views: [{type: 'list'}, {type: 'endpoint', endpointId: 'ep1'}] as const};

let unmount: (() => void) | undefined;
afterEach(() => {
	unmount?.();
	unmount = undefined;
});

describe('endpoint details drawn from history', () => {
	test('the window shows the last hour at once: queue, workers, jobs finished and failed, min and max, a time axis', async () => {
		const rendered = renderWith(recorded, <EndpointDetail endpointId='ep1' width={120} height={36} />, {engine: recorded.engine, view: detailView});
		unmount = rendered.unmount;
		const frame = await frameMatching(rendered.lastFrame, /jobs finished {2}mean \d/);
		expect(frame).toMatch(/llama \(ep1\) {2}Esc back · 1h < > window/);
		// The last hour's queue rose 0 → 19 three times; in progress stayed 1.
		expect(topLabel(frame, /queue {2}in queue/)).toBe('19');
		expect(frame).toMatch(/in progress 1/);
		// Workers stacked: 4 running, 1 idle, and throttled 1 for the last ten minutes.
		expect(topLabel(frame, /workers {2}run/)).toBe('6');
		expect(frame).toMatch(/workers {2}run 4 {2}idle 1 {2}init 0 {2}thr 1 {2}unh 0/);
		// 30 completed a minute, 6 failed every tenth minute: about 31 finished a minute, 0.6 failed.
		expect(frame).toMatch(/jobs finished {2}mean (2[89]|3[0-3])\/m/);
		expect(frame).toMatch(/failed {2}mean 0\.[4-9]\/m {2}[1-3]\.\d% of finished/);
		expect(braille.test(frame)).toBe(true);
		// Every ten minutes labelled, the last within the last twenty minutes of now.
		const labels = axisLabels(frame);
		expect(labels.length).toBeGreaterThanOrEqual(4);
		expect(minutesBefore(labels.at(-1)!, Date.now())).toBeLessThan(20);
	});

	test('> and < change the window: 6 h shows the hours the queue stood at 50; < goes back', async () => {
		const rendered = renderWith(recorded, <EndpointDetail endpointId='ep1' width={120} height={36} />, {engine: recorded.engine, view: detailView});
		unmount = rendered.unmount;
		await frameMatching(rendered.lastFrame, /jobs finished {2}mean \d/);
		rendered.view.dispatch({type: 'window', step: 1});
		let frame = await frameMatching(rendered.lastFrame, /Esc back · 6h < > window/);
		frame = await frameMatching(rendered.lastFrame, /queue {2}in queue[\s\S]*\n +50 /);
		expect(topLabel(frame, /queue {2}in queue/)).toBe('50');
		rendered.view.dispatch({type: 'window', step: -1});
		frame = await frameMatching(rendered.lastFrame, /Esc back · 1h < > window[\s\S]*\n +19 /);
		expect(topLabel(frame, /queue {2}in queue/)).toBe('19');
	});

	test('the time cursor moves the charts’ end: two hours back, the hour shown is one the queue stood at 50', async () => {
		const rendered = renderWith(recorded, <EndpointDetail endpointId='ep1' width={120} height={36} />, {engine: recorded.engine, view: detailView});
		unmount = rendered.unmount;
		await frameMatching(rendered.lastFrame, /jobs finished {2}mean \d/);
		const at = Date.now() - 2 * hour;
		rendered.view.dispatch({type: 'cursor', at});
		const frame = await frameMatching(rendered.lastFrame, /queue {2}in queue 50/);
		expect(topLabel(frame, /queue {2}in queue/)).toBe('50');
		const labels = axisLabels(frame);
		expect(minutesBefore(labels.at(-1)!, at)).toBeLessThan(20);
		expect(minutesBefore(labels[0]!, at)).toBeGreaterThan(40);
	});

	test('over the local file a new window is drawn in the frame that first shows its title: no frame says it is reading', async () => {
		const rendered = renderWith(recorded, <EndpointDetail endpointId='ep1' width={110} height={36} />, {engine: recorded.engine, view: detailView});
		unmount = rendered.unmount;
		// 110 columns wide: a request none of the tests before asked (the answers are kept per reader).
		await frameMatching(rendered.lastFrame, /jobs finished {2}mean \d/);
		rendered.view.dispatch({type: 'window', step: 1});
		await frameMatching(rendered.lastFrame, /queue {2}in queue[\s\S]*\n +50 /);
		const titled = rendered.frames.filter(frame => frame.includes('6h < > window'));
		expect(titled.length).toBeGreaterThan(0);
		expect(titled.filter(frame => frame.includes('reading 6h'))).toEqual([]);
		expect(topLabel(titled[0]!, /queue {2}in queue/)).toBe('50');
	});

	test('the last answer stays while the next is on its way; an answer for a window no longer shown is dropped', async () => {
		const {engine, gates} = gatedEngine(recorded.reader);
		const rendered = renderWith(recorded, <EndpointDetail endpointId='ep1' width={120} height={36} />, {engine, view: detailView});
		unmount = rendered.unmount;
		// Nothing yet: the charts' frames say so, the layout already in place.
		let frame = await frameMatching(rendered.lastFrame, /reading 1h of history…/);
		expect(frame).toMatch(/queue {2}in queue/);
		await waitFor(() => gates.length === 1);
		gates[0]!.release();
		frame = await frameMatching(rendered.lastFrame, /jobs finished {2}mean \d/);
		expect(topLabel(frame, /queue {2}in queue/)).toBe('19');
		// > asks for 6 hours: until it comes, the hour stays drawn (no blank), saying the 6 hours are on their way.
		rendered.view.dispatch({type: 'window', step: 1});
		await waitFor(() => gates.length === 2);
		await tick(50);
		frame = rendered.lastFrame()!;
		expect(frame).toMatch(/6h < > window/);
		expect(frame).toMatch(/queue {2}in queue \d+ {2}in progress \d+( \(line\))? {2}reading 6h…/);
		expect(frame).not.toMatch(/reading 6h of history/);
		expect(topLabel(frame, /queue {2}in queue/)).toBe('19');
		// > again, for a day, before the 6 hours came: the day's answer is drawn, the 6 hours' dropped when it comes late.
		rendered.view.dispatch({type: 'window', step: 1});
		await waitFor(() => gates.length === 3);
		expect(gates.map(gate => gate.query.to - gate.query.from)).toEqual([
			expect.closeTo(hour + 200_000, -6),
			expect.closeTo(6 * hour + 500_000, -6),
			expect.closeTo(24 * hour + 2_000_000, -7),
		]);
		gates[2]!.release();
		frame = await frameMatching(rendered.lastFrame, /24h < > window[\s\S]*\n +50 /);
		gates[1]!.release();
		await tick(100);
		expect(rendered.lastFrame()).toBe(frame);
		// The answers are kept: back to 6 hours, it is drawn at once, without asking again.
		rendered.view.dispatch({type: 'window', step: -1});
		await frameMatching(rendered.lastFrame, /6h < > window[\s\S]*\n +50 /);
		expect(gates).toHaveLength(3);
	});

	test('without history (--no-history) the charts draw the ten minutes the store keeps, and say so', async () => {
		const state = testStore();
		const now = Date.now();
		state.writes.setEndpoints([{id: 'ep1', name: 'llama'}], now - 600_000);
		for (let index = 0; index <= 20; index++) {
			state.writes.setHealth('ep1', health({inQueue: index, completed: 100 + index * 10, failed: 3}), now - 600_000 + index * 30_000);
		}

		const engine = {history: {reader: () => undefined, ready: Promise.resolve()}, showing() {}} as unknown as Engine;
		const rendered = renderWith(state, <EndpointDetail endpointId='ep1' width={120} height={36} />, {engine, view: detailView});
		unmount = rendered.unmount;
		const frame = await frameMatching(rendered.lastFrame, /queue {2}in queue 20/);
		expect(frame).toMatch(/1h \(history off: the last 10m in memory\) < > window/);
		expect(topLabel(frame, /queue {2}in queue/)).toBe('20');
		// 10 completed per 30 s poll: 20 a minute (the window's columns cut the polls unevenly).
		expect(frame).toMatch(/jobs finished {2}mean (19|2[01])\/m/);
		// Only the running workers are kept in memory: they are drawn, the rest are unknown.
		expect(frame).toMatch(/workers {2}run 2 {2}idle – {2}init –/);
		expect(topLabel(frame, /workers {2}run/)).toBe('2');
	});

	test('--ascii: charts in ASCII, no braille or blocks', async () => {
		const rendered = renderWith(recorded, <EndpointDetail endpointId='ep1' width={80} height={20} />, {
			engine: recorded.engine,
			view: detailView,
			glyphs: asciiGlyphs,
		});
		unmount = rendered.unmount;
		const frame = await frameMatching(rendered.lastFrame, /jobs finished {2}mean \d/);
		const charts = frame.split('\n').slice(5, 15).join('\n');
		expect(charts).toMatch(/#/);
		expect(frame).not.toMatch(/[\u2580-\u259F\u2800-\u28FF]/);
	});
});

describe('pods, GPU types and the list panes drawn from history', () => {
	test('pod details: each GPU and the container over the window', async () => {
		const rendered = renderWith(recorded, <PodDetail podId='p1' showEnv={false} width={120} height={36} />, {
			engine: recorded.engine,
			view: {views: [{type: 'list'}, {type: 'pod', podId: 'p1', showEnv: false}]},
		});
		unmount = rendered.unmount;
		const frame = await frameMatching(rendered.lastFrame, /container {2}CPU 30% {2}memory 50%/);
		expect(frame).toMatch(/GPU 0 {2}util 20% {2}memory 40%/);
		expect(frame).toMatch(/GPU 1 {2}util 50% {2}memory 41%/);
		expect(topLabel(frame, /GPU 0 {2}util/)).toBe('100%');
		expect(frame).toMatch(/1h < > window/);
		expect(braille.test(frame)).toBe(true);
	});

	test('GPU details: prices, stock and free GPUs over the window', async () => {
		const rendered = renderWith(recorded, <GpuDetail gpuId='NVIDIA H100 80GB HBM3' width={120} height={36} />, {
			engine: recorded.engine,
			view: {views: [{type: 'list'}, {type: 'gpu', gpuId: 'NVIDIA H100 80GB HBM3'}]},
		});
		unmount = rendered.unmount;
		const frame = await frameMatching(rendered.lastFrame, /stock {2}now Low/);
		expect(frame).toMatch(/on demand \$\/h {2}secure \$2\.99 {2}community \$2\.69 {2}lowest \$2\.69/);
		expect(frame).toMatch(/spot \$\/h {2}secure \$1\.95 {2}community \$1\.75 {2}min bid \$1\.75/);
		// The bid was $1.50, then $1.75: the spot chart spans the two.
		expect(topLabel(frame, /spot \$\/h/)).toBe('$1.95');
		expect(topLabel(frame, /stock {2}now/)).toBe('High');
		expect(frame).toMatch(/free GPUs {2}now 4/);
		expect(frame).toMatch(/24h < > window/);
	});

	test('the list panes: one request for the rows on screen, the trend over the window, the title says the window', async () => {
		const {engine, queries} = countingEngine(recorded.reader);
		// 40 endpoints, only ep1 recorded; the table shows those that fit.
		recorded.writes.setEndpoints(
			[
				{id: 'ep1', name: 'llama', workersMin: 0, workersMax: 8},
				...Array.from({length: 39}, (_, index) => ({id: `other${String(index).padStart(2, '0')}`, name: `other-${index}`})),
			],
			Date.now(),
		);
		const rendered = renderWith(recorded, <App readOnly={false} />, {engine, view: {columns: 120, rows: 40}});
		unmount = rendered.unmount;
		const frame = await frameMatching(rendered.lastFrame, /Endpoints \(40\) · 1h/);
		await waitFor(() => queries.length > 0);
		await tick(200);
		const endpointQueries = queries.filter(query => query.kind === 'endpoint');
		expect(endpointQueries).toHaveLength(1);
		const rows = frame.split('\n').filter(line => /^(llama|other-)/.test(line)).length;
		expect(endpointQueries[0]!.keys).toHaveLength(rows);
		// The queue of the last hour, 0 → 19 three times, 12 cells of 5 minutes: no cell blank.
		const trend = await frameMatching(rendered.lastFrame, /^llama .* ([▁-█]{12}) /m);
		expect(/^llama .* ([▁-█]{12}) /m.exec(trend)?.[1]).not.toMatch(/^█+$/);
		// Polls come in: no request per poll or frame (the next one at most once a column, here five minutes).
		for (let index = 0; index < 5; index++) {
			recorded.writes.setHealth('other01', health({inQueue: index}), Date.now());
			await tick(20);
		}

		expect(queries.filter(query => query.kind === 'endpoint')).toHaveLength(1);
		rendered.stdin.write('2');
		await frameMatching(rendered.lastFrame, /Pods \(1\) · 1h/);
		rendered.stdin.write('3');
		await frameMatching(rendered.lastFrame, /GPUs \(1\) · 6h/);
		const gpuRow = await frameMatching(rendered.lastFrame, /^H100 SXM .*●○○ Low +4 +\S+ +\S+/m);
		expect(gpuRow).toMatch(/STOCK TREND +SPOT TREND/);
		expect(queries.filter(query => query.kind === 'gpu')).toHaveLength(1);
	});

	test('every view stays within rows − 1 lines at 80×24 and 120×40', async () => {
		for (const [columns, rows] of [
			[80, 24],
			[120, 40],
		] as const) {
			for (const [views, pane, drawn] of [
				[[{type: 'list'}, {type: 'endpoint', endpointId: 'ep1'}], 'endpoints', /\d\d:\d\d/],
				[[{type: 'list'}, {type: 'pod', podId: 'p1', showEnv: false}], 'pods', /\d\d:\d\d/],
				[[{type: 'list'}, {type: 'gpu', gpuId: 'NVIDIA H100 80GB HBM3'}], 'gpus', /\d\d:\d\d/],
				// The list panes, their trend columns from history when there is room for them.
				[[{type: 'list'}], 'endpoints', /Endpoints \(\d+\) · 1h[\s\S]*\nllama /],
				[[{type: 'list'}], 'pods', /Pods \(\d+\) · 1h[\s\S]*\ntrainer /],
				[[{type: 'list'}], 'gpus', /GPUs \(\d+\) · 6h[\s\S]*\nH100 SXM /],
			] as const) {
				const rendered = renderWith(recorded, <App readOnly={false} />, {engine: recorded.engine, view: {columns, rows, views, pane}});
				await frameMatching(rendered.lastFrame, drawn);
				// What history answers is drawn too.
				await tick(150);
				const frame = rendered.lastFrame()!;
				expect(frame.split('\n').length, frame).toBeLessThanOrEqual(rows - 1);
				expect(frame.split('\n').every(line => [...line].length <= columns)).toBe(true);
				if (columns === 120 && views.length === 1) {
					expect(frame, frame).toMatch(/ [▁-█]{4,}/);
				}

				rendered.unmount();
			}
		}
	});
});

async function waitFor(check: () => boolean, ms = 3000): Promise<void> {
	const deadline = Date.now() + ms;
	while (!check()) {
		if (Date.now() > deadline) {
			throw new Error('timed out');
		}

		await tick(10);
	}
}

import {afterEach, describe, expect, test, vi} from 'vitest';
import {createEngine, type Engine} from '../../source/engine/create-engine.js';
import {demoOrigin, demoPastMs} from '../../source/engine/demo-past.js';
import type {Series} from '../../source/history/history-types.js';
import {keyframeMs} from '../../source/history/keyframe.js';
import {figuresWindowMs} from '../../source/store/endpoint-figures.js';

const minute = 60_000;
const hour = 60 * minute;

let engine: Engine | undefined;
afterEach(async () => {
	await engine?.close();
	engine = undefined;
});

const demo = {mode: 'demo', warnings: []} as const;
const field = (series: Series, name: string) => series.fields.indexOf(name);
const values = (series: Series, name: string) => series.points.map(point => point.last[field(series, name)] ?? null);

describe("DEMO's history: the simulated past", () => {
	test('once ready, it holds 6 h of every endpoint, pod and GPU type, moving as the fleet did; the live store shows only the present, continuing it', async () => {
		const startedAt = Date.now();
		engine = await createEngine({target: demo, record: true, allVisible: true, history: {demoPastMs: 6 * hour}});
		// From the hour at least 6 h back: the demo's world begins on the hour.
		expect(engine.simulatedPastMs).toBeGreaterThanOrEqual(6 * hour);
		expect(engine.simulatedPastMs).toBeLessThan(7 * hour);
		engine.start();
		await engine.history.ready;
		expect(engine.history.status.getState().state).toBe('recording');
		const reader = engine.history.reader()!;
		const span = (await reader.span())!;
		expect(span.to - span.from).toBeGreaterThanOrEqual(6 * hour);

		const things = await reader.things();
		const ofKind = (kind: string) => things.filter(thing => thing.kind === kind);
		expect(ofKind('endpoint')).toHaveLength(9);
		expect(ofKind('pod')).toHaveLength(12);
		expect(ofKind('gpu')).toHaveLength(20);

		const now = Date.now();
		const read = async (kind: 'endpoint' | 'pod' | 'gpu') =>
			reader.series({kind, keys: ofKind(kind).map(thing => thing.key), from: now - 6 * hour, to: now, step: minute});
		const [endpoints, pods, gpus] = await Promise.all([read('endpoint'), read('pod'), read('gpu')]);
		for (const series of [...endpoints, ...pods, ...gpus]) {
			// A point a minute, from the first simulated minute to now.
			expect(series.points.length, `${series.kind} ${series.name}`).toBeGreaterThanOrEqual(355);
			expect(series.points[0]!.at).toBeLessThanOrEqual(startedAt - 6 * hour + 2 * minute);
		}

		const distinct = (list: unknown[]) => new Set(list.map(value => JSON.stringify(value))).size;
		// Queues fill and drain, workers come and go, GPUs and prices move.
		expect(Math.max(...endpoints.map(series => distinct(values(series, 'inQueue'))))).toBeGreaterThan(3);
		expect(Math.max(...endpoints.map(series => distinct(values(series, 'running'))))).toBeGreaterThan(2);
		expect(Math.max(...pods.map(series => distinct(values(series, 'gpu0.util'))))).toBeGreaterThan(20);
		expect(Math.max(...gpus.map(series => distinct(values(series, 'available'))))).toBeGreaterThan(5);

		// The live store: polled from the simulator's present only, its counters carrying on from the past's.
		await vi.waitFor(
			() => {
				const {endpoints: live} = engine!.store.getState();
				expect(live.order).toHaveLength(9);
				expect(live.order.every(id => live.byId[id]?.health)).toBe(true);
			},
			{timeout: 60_000, interval: 200},
		);
		const state = engine.store.getState();
		expect(state.endpoints.updatedAt).toBeGreaterThanOrEqual(startedAt);
		for (const series of endpoints) {
			const live = state.endpoints.byId[series.key]!;
			// Its own polls, after what history recorded of the last minutes before it started (the seed: its rates at once).
			expect(live.history.every(sample => sample.at >= startedAt - figuresWindowMs - keyframeMs)).toBe(true);
			expect(live.history.at(-1)!.at).toBeGreaterThanOrEqual(startedAt);
			const completed = values(series, 'completed').filter((value): value is number => value !== null);
			const recordedLast = completed.at(-1)!;
			const sixHours = recordedLast - completed[0]!;
			expect(live.health!.jobs.completed).toBeGreaterThanOrEqual(recordedLast);
			// Seconds after the past, not another fleet's counters: far less than an hour's jobs apart.
			expect(live.health!.jobs.completed - recordedLast).toBeLessThanOrEqual(Math.max(5, sixHours / 6));
		}
	}, 300_000);

	test('only a DEMO that records the whole account records a past: 2 to 3 h (from the hour) unless told', async () => {
		engine = await createEngine({target: demo, record: true});
		expect(engine.simulatedPastMs).toBeGreaterThanOrEqual(demoPastMs);
		expect(engine.simulatedPastMs).toBeLessThan(demoPastMs + hour);
		expect(demoPastMs).toBe(2 * hour);
		await engine.close();
		engine = undefined;

		for (const options of [
			{record: false},
			{record: true, endpointFilter: ['x']},
			{record: true, history: {disabled: true}},
			{record: true, history: {demoPastMs: 0}},
		]) {
			engine = await createEngine({target: demo, ...options});
			expect(engine.simulatedPastMs).toBeUndefined();

			await engine.history.ready;

			await engine.close();
			engine = undefined;
		}
	});
});

describe("the demo's world", () => {
	test('begins on the hour at least the past before now: every podtop started within that hour runs the same one', () => {
		const at = Date.UTC(2026, 10, 29, 1, 44, 21);
		expect(new Date(demoOrigin(at, 2 * hour)).toISOString()).toBe('2026-11-28T23:00:00.000Z');
		expect(demoOrigin(Date.UTC(2026, 10, 29, 1, 59, 59), 2 * hour)).toBe(demoOrigin(Date.UTC(2026, 10, 29, 1, 0, 0), 2 * hour));
		expect(demoOrigin(Date.UTC(2026, 10, 29, 2, 0, 0), 2 * hour) - demoOrigin(Date.UTC(2026, 10, 29, 1, 59, 59), 2 * hour)).toBe(hour);
	});
});

import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {budgetLimit, defaultBudgetSettings} from '../../source/poll/budget-limits.js';
import {defaultCadence} from '../../source/poll/cadence.js';
import type {Engine} from '../../source/engine/create-engine.js';
import {startTestSim, type TestSim} from '../helpers/sim-client.js';
import {engineFor, simStats} from '../helpers/engine.js';

/**
Fifty endpoints, the service's limits scaled to 1 % (/status: 20 per 10 s), podtop allowed half of
that (share 0.005: 10 per 10 s) and asked for three times more (three followed or polled jobs per
endpoint). For 60 seconds the scheduler must hold the line: zero 429s, no 10-second window above
the configured share.
*/
const share = 0.005;
const endpoints = Array.from({length: 50}, (_, index) => ({id: `ep${String(index).padStart(2, '0')}`, workersMin: 3, workersMax: 3, flashBoot: true}));

let sim: TestSim;
let engine: Engine;
const jobIds = new Map<string, string[]>();

beforeAll(async () => {
	sim = await startTestSim({rateLimitScale: 0.01, graphqlRate: 5, speed: 1, endpoints});
	// Long jobs that stay IN_PROGRESS, streaming now and then.
	for (const {id} of endpoints) {
		const ids: string[] = [];
		for (let index = 0; index < 3; index++) {
			const {body} = await sim.call('POST', `/v2/${id}/run`, {body: {input: {delay_ms: 600_000, stream: Array.from({length: 50}, (_, n) => `chunk ${n}`)}}});
			ids.push(body.id);
		}

		jobIds.set(id, ids);
	}

	await sim.call('POST', '/__sim/stats/reset');
	engine = await engineFor(sim, {budget: {share}, cadence: {...defaultCadence, healthMs: 2000}});
	for (const [endpointId, ids] of jobIds) {
		for (const [index, jobId] of ids.entries()) {
			if (index === 0) {
				engine.follow(endpointId, jobId);
			} else {
				engine.track(endpointId, jobId);
			}
		}
	}

	engine.start();
	await new Promise(resolve => setTimeout(resolve, 60_000));
	await engine.close();
}, 120_000);

afterAll(async () => {
	await engine?.close();
	await sim?.close();
});

describe('a 60-second run against tight limits', () => {
	test('zero 429s anywhere', async () => {
		const stats = await simStats(sim);
		const limited = Object.entries(stats).flatMap(([scope, operations]) =>
			Object.entries(operations)
				.filter(([, counter]) => counter.rateLimited > 0)
				.map(([operation]) => `${scope}/${operation}`),
		);
		expect(limited).toEqual([]);
	});

	test('no 10-second window above the configured share, per endpoint and operation group', async () => {
		const stats = await simStats(sim);
		const allowed = budgetLimit('status', {...defaultBudgetSettings, share, healthPerWindow: 10, graphqlPerWindow: 10}).perWindow;
		expect(allowed).toBe(10);
		for (const {id} of endpoints) {
			// /status and /stream are limited apart (the spec's table), each at the same share.
			const status = stats[id]!.status?.peakWindow ?? 0;
			const stream = stats[id]!.stream?.peakWindow ?? 0;
			expect(status, id).toBeLessThanOrEqual(allowed);
			expect(stream, id).toBeLessThanOrEqual(allowed);
			// The budget was the bottleneck: podtop used it, it did not idle.
			expect(Math.max(status, stream), id).toBeGreaterThanOrEqual(allowed - 2);
			expect(stats[id]!.health!.peakWindow, id).toBeLessThanOrEqual(10);
		}

		expect(stats.graphql!.request!.peakWindow).toBeLessThanOrEqual(10);
	});

	test('the jobs were really followed: status and streams reached the store', () => {
		const jobs = [...engine.store.getState().jobs.byKey.values()];
		expect(jobs).toHaveLength(150);
		expect(jobs.every(job => job.status === 'IN_PROGRESS')).toBe(true);
		expect(jobs.filter(job => job.follow && job.chunkCount > 0).length).toBeGreaterThan(40);
		const {budgets} = engine.store.getState();
		expect(budgets['ep00:status']).toMatchObject({allowed: 10, windowMs: 10_000});
	});
});

import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, test} from 'vitest';
import type {SpendReport} from '../../source/engine/spend-report.js';
import type {SpendQuery, SpendSplit} from '../../source/model/spend.js';
import {closedAfterEach, engineFor, simStats} from '../helpers/engine.js';
import {startTestSim, type TestSim} from '../helpers/sim-client.js';

const roomy = {minute: 10_000, hour: 100_000, day: 1_000_000};
const dayMs = 86_400_000;
const folders: string[] = [];
const folder = () => {
	const made = mkdtempSync(join(tmpdir(), 'podtop-bills-'));
	folders.push(made);
	return made;
};

afterAll(() => {
	for (const made of folders) {
		rmSync(made, {recursive: true, force: true});
	}
});

/** Billing requests the simulator served so far, per route. */
async function billingRequests(sim: TestSim): Promise<Record<string, number>> {
	const rest = (await simStats(sim)).rest ?? {};
	return Object.fromEntries(Object.entries(rest).flatMap(([route, stats]) => (route.includes('/billing') ? [[route, stats.requests]] : [])));
}

const sum = (counts: Record<string, number>) => Object.values(counts).reduce((total, count) => total + count, 0);
const cents = (dollars: number) => Math.round(dollars * 100);
const byId = (a: Array<string | number>, b: Array<string | number>) => String(a[0]).localeCompare(String(b[0]));

/** What a report says, to the cent: its total, each bucket's (or resource's bucket's) total, each resource's. */
const inCents = (report: SpendReport) => ({
	total: cents(report.total),
	rows: report.rows.map(row => [row.from, row.id ?? '', cents(row.total)]),
	resources: report.resources.map(resource => [resource.id, cents(resource.total)]),
});

describe('bills kept in the history file', () => {
	const running = closedAfterEach();

	test('a second read of 30 days that closed sends no billing request, and says the same to the cent', async () => {
		running.sim = await startTestSim({podCount: 12, restQuota: roomy});
		const directory = folder();
		const today = Math.floor(Date.now() / dayMs) * dayMs;
		const query: SpendQuery = {bucketSize: 'day', from: today - 30 * dayMs, to: today};
		const splits: SpendSplit[] = ['category', 'pod', 'endpoint', 'volume'];
		const readAll = async () => {
			const engine = await engineFor(running.sim!, {poll: [], history: {directory}});
			try {
				return await Promise.all(splits.map(async split => engine.spend(query, split)));
			} finally {
				await engine.close();
			}
		};

		const first = await readAll();
		const afterFirst = sum(await billingRequests(running.sim));
		expect(afterFirst).toBe(4);
		expect(first[0]!.rows).toHaveLength(30);
		expect(first[1]!.rows.length).toBeGreaterThan(0);
		expect(first[0]!.total).toBeGreaterThan(0);

		const second = await readAll();
		expect(sum(await billingRequests(running.sim))).toBe(afterFirst);
		expect(second.map(report => inCents(report))).toEqual(first.map(report => inCents(report)));
		expect(second.map(report => report.window)).toEqual(first.map(report => report.window));
		expect(second[1]!.byCategory).toEqual(first[1]!.byCategory);
	});

	test('the bucket still open is asked for again once per billing run, alone, and rewritten, never doubled', async () => {
		running.sim = await startTestSim({podCount: 12, restQuota: roomy});
		const directory = folder();
		const start = Date.now();
		let clock = start;
		const query: SpendQuery = {bucketSize: 'hour', from: start - 12 * 3_600_000, to: start};
		const read = async () => {
			const engine = await engineFor(running.sim!, {poll: [], history: {directory}, billClock: () => clock});
			try {
				return [await engine.spend(query, 'category'), await engine.spend(query, 'pod')] as const;
			} finally {
				await engine.close();
			}
		};

		const first = await read();
		const afterFirst = sum(await billingRequests(running.sim));
		expect(afterFirst).toBe(2);
		// Within the same 5-minute run: nothing newer to ask for.
		const second = await read();
		expect(sum(await billingRequests(running.sim))).toBe(afterFirst);
		expect(second.map(report => inCents(report))).toEqual(first.map(report => inCents(report)));
		// The next run: the open hour is asked for again (one request per route), the hours that closed are not.
		clock = start + 300_000;
		const third = await read();
		expect(sum(await billingRequests(running.sim))).toBe(afterFirst + 2);
		const keys = third[1].rows.map(row => `${row.from}:${row.id}`);
		expect(new Set(keys).size).toBe(keys.length);
		expect(third[0].rows.map(row => row.from)).toEqual(first[0].rows.map(row => row.from));
		const closedHours = (report: SpendReport) => inCents(report).rows.filter(([from]) => (from as number) + 3_600_000 <= first[0].rows.at(-1)!.from);
		expect(closedHours(third[1])).toEqual(closedHours(first[1]));
	});

	test("the Spend pane's totals are summed in the history file: each resource's over each window and its $/h in the last closed bucket, as from its rows read whole, to the cent", async () => {
		running.sim = await startTestSim({podCount: 12, restQuota: roomy});
		const directory = folder();
		const start = Date.now();
		let clock = start;
		const hour = Math.floor(start / 3_600_000) * 3_600_000;
		const query: SpendQuery = {bucketSize: 'hour', from: hour - 12 * 3_600_000, to: hour + 3_600_000};
		const starts = [query.from!, hour - 5 * 3_600_000];
		/** What the pane made of the rows read whole: per window, each pod's total and its $/h in the last closed bucket with rows. */
		const fromRows = (report: SpendReport, from: number) => {
			const rows = report.rows.filter(row => row.from >= from);
			const last = Math.max(-Infinity, ...rows.filter(row => row.to <= clock).map(row => row.from));
			const lines = new Map<string, [number, number]>();
			for (const row of rows) {
				const [total, perHour] = lines.get(row.id!) ?? [0, 0];
				lines.set(row.id!, [total + row.total, perHour + (row.from === last ? row.total / ((row.to - row.from) / 3_600_000) : 0)]);
			}

			return [...lines].map(([id, [total, perHour]]) => [id, cents(total), cents(perHour)]).sort(byId);
		};

		const read = async () => {
			const engine = await engineFor(running.sim!, {poll: [], history: {directory}, billClock: () => clock});
			try {
				const totals = await engine.spendTotals(query, 'pod', {starts, closedBy: clock});
				const whole = await engine.spend(query, 'pod');
				return {
					summed: totals.map(lines => lines.map(line => [line.id, cents(line.total), cents(line.lastClosed)]).sort(byId)),
					whole: starts.map(from => fromRows(whole, from)),
					names: totals[0]!.map(line => line.name),
				};
			} finally {
				await engine.close();
			}
		};

		// Read from the service (nothing kept yet), then from the file alone, then the file with the open hour asked again.
		const first = await read();
		expect(first.summed[0]!.length).toBeGreaterThan(0);
		expect(first.summed).toEqual(first.whole);
		expect(first.names.every(name => name.length > 0)).toBe(true);
		expect(first.summed[0]!.some(line => (line[2] as number) > 0)).toBe(true);
		expect(first.summed[1]).not.toEqual(first.summed[0]);
		const afterFirst = sum(await billingRequests(running.sim));
		const second = await read();
		expect(sum(await billingRequests(running.sim))).toBe(afterFirst);
		expect(second.summed).toEqual(second.whole);
		expect(second.summed).toEqual(first.summed);
		clock = start + 300_000;
		const third = await read();
		expect(sum(await billingRequests(running.sim))).toBe(afterFirst + 1);
		expect(third.summed).toEqual(third.whole);
	});

	test('--no-history keeps nothing: every read asks the service for the whole window', async () => {
		running.sim = await startTestSim({podCount: 4, restQuota: roomy});
		const today = Math.floor(Date.now() / dayMs) * dayMs;
		const query: SpendQuery = {bucketSize: 'hour', from: today - dayMs, to: today};
		for (let round = 0; round < 2; round++) {
			const engine = await engineFor(running.sim, {poll: [], history: {disabled: true}});
			await engine.spend(query, 'category');
			await engine.close();
		}

		expect(sum(await billingRequests(running.sim))).toBe(2);
	});
});

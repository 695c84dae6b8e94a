import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, test} from 'vitest';
import {createMetrics} from '../../source/serve/metrics.js';
import {createSpendFeed, spendResourcesPerKind, type TodaySpend} from '../../source/serve/spend-metrics.js';
import {createPodtopStore} from '../../source/store/create-store.js';
import {closedAfterEach, engineFor} from '../helpers/engine.js';
import {startTestSim} from '../helpers/sim-client.js';

const folder = mkdtempSync(join(tmpdir(), 'podtop-spend-metrics-'));
afterAll(() => {
	rmSync(folder, {recursive: true, force: true});
});

const lines = (text: string, name: string) => text.split('\n').filter(line => line.startsWith(`${name}{`));

describe('podtop_spend_usd and podtop_resource_spend_usd', () => {
	const running = closedAfterEach();

	test('today by category, and per resource: the 50 costliest per kind and the rest as one "other", names inert', async () => {
		const {store} = createPodtopStore({mode: 'live', apiHost: 'x', keyFingerprint: '••••1234'});
		const hostile = 'evil\u001B]0;PWNED\u0007\u001B[2Jname"\nnext';
		const pods = Array.from({length: 60}, (_, index) => ({
			kind: 'pod' as const,
			id: `pod${index}`,
			name: index === 59 ? hostile : `p${index}`,
			total: 100 - index,
		}));
		const today: TodaySpend = {
			day: 0,
			byCategory: {podGpu: 12.5, podCpu: 0.25, serverlessFee: 0},
			resources: [...pods, {kind: 'volume', id: 'vol1', name: hostile, total: 0.5}],
		};
		const metrics = createMetrics(store, {spendToday: () => today});
		const text = await metrics.registry.metrics();
		metrics.close();
		expect(lines(text, 'podtop_spend_usd')).toEqual([
			'podtop_spend_usd{category="podGpu"} 12.5',
			'podtop_spend_usd{category="podCpu"} 0.25',
			'podtop_spend_usd{category="serverlessFee"} 0',
		]);
		const resources = lines(text, 'podtop_resource_spend_usd');
		expect(resources.filter(line => line.includes('kind="pod"'))).toHaveLength(spendResourcesPerKind + 1);
		expect(resources[0]).toBe('podtop_resource_spend_usd{kind="pod",resource_id="pod0",resource="p0"} 100');
		// The ten cheapest pods ($50 down to $41) are one series: $455.
		expect(resources).toContain('podtop_resource_spend_usd{kind="pod",resource_id="other",resource="other"} 455');
		const volume = resources.find(line => line.includes('kind="volume"'))!;
		expect(volume).not.toMatch(/[\u0000-\u001F\u007F]/);
		expect(volume).toContain('resource_id="vol1"');
		expect(volume).toMatch(/ 0\.5$/);
		// Without a feed (a key without billing): no series at all.
		const none = createMetrics(store, {spendToday: () => undefined});
		expect(lines(await none.registry.metrics(), 'podtop_spend_usd')).toEqual([]);
		none.close();
	});

	test('the feed reads today’s bills from the service (real HTTP): the day by category, and each pod by name', async () => {
		running.sim = await startTestSim({podCount: 6, restQuota: {minute: 10_000, hour: 100_000, day: 1_000_000}});
		running.engine = await engineFor(running.sim, {poll: [], history: {directory: folder}});
		const feed = createSpendFeed(running.engine.spend, {everyMs: 3_600_000});
		try {
			await feed.read();
			const today = feed.today()!;
			const day = Math.floor(Date.now() / 86_400_000) * 86_400_000;
			expect(today.day).toBe(day);
			const bill = await running.engine.spend({bucketSize: 'day', from: day, to: day + 86_400_000}, 'category');
			const sum = Object.values(today.byCategory).reduce((total, amount) => total + (amount ?? 0), 0);
			expect(Math.round(sum * 100)).toBe(Math.round(bill.total * 100));
			expect(today.resources.some(resource => resource.kind === 'pod' && resource.name.length > 0)).toBe(true);
			const metrics = createMetrics(running.engine.store, {spendToday: feed.today});
			const text = await metrics.registry.metrics();
			metrics.close();
			expect(lines(text, 'podtop_spend_usd').length).toBeGreaterThan(0);
			expect(lines(text, 'podtop_resource_spend_usd').some(line => line.includes('kind="pod"'))).toBe(true);
		} finally {
			feed.close();
		}
	});
});

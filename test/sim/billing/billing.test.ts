import {afterEach, expect, test} from 'vitest';
import {billingPrices, serverlessPoolPrices} from '../../../source/sim/billing/prices.js';
import {startClockedSim, type ClockedSim} from './billing-sim.js';

const hour = 3_600_000;
/** The present the tests' simulators run up to; their first moment is 06:00 UTC that day. */
const startAt = Date.UTC(2026, 11, 1, 12);
const origin = Date.UTC(2026, 11, 1, 6);
const started: ClockedSim[] = [];
const cents = (amount: number) => Math.round(amount * 100);

afterEach(async () => {
	await Promise.all(started.splice(0).map(async sim => sim.close()));
});

async function clockedSim(config: Parameters<typeof startClockedSim>[0]) {
	const sim = await startClockedSim(config);
	started.push(sim);
	return sim;
}

test('a pod is billed for its GPUs while it runs and for its disks, a stopped one for its volume, to the cent, in 5-minute runs', async () => {
	const {sim, advance, get} = await clockedSim({startAt, pastMs: startAt - origin});
	const pod = sim.pods.deploy(
		{name: 'billed', gpuTypeId: 'NVIDIA L4', gpuCount: 1, cloudType: 'SECURE', imageName: 'x/y', volumeInGb: 50, containerDiskInGb: 20},
		false,
	);
	advance(1.5 * hour);
	sim.pods.stop(pod.id);
	advance(0.5 * hour);
	sim.pods.resume(pod.id);
	advance(70 * 60_000 + 4 * 60_000);
	// 09:14: the run from 09:10 has not closed, so the bill reaches 09:10.
	const perHourRunning = {gpu: pod.costPerHr, disk: 70 * billingPrices.runningDiskPerGbHour};
	const stoppedDisk = 50 * billingPrices.stoppedVolumePerGbHour;
	const expected = [
		{gpu: perHourRunning.gpu, disk: perHourRunning.disk},
		{gpu: perHourRunning.gpu / 2, disk: perHourRunning.disk / 2 + stoppedDisk / 2},
		{gpu: perHourRunning.gpu, disk: perHourRunning.disk},
		{gpu: perHourRunning.gpu / 6, disk: perHourRunning.disk / 6},
	];
	const reply = await get(`/v2/billing/pods?bucketSize=hour&startTime=2026-12-01T06:00:00Z&endTime=2026-12-01T10:00:00Z`);
	expect(reply.status).toBe(200);
	expect(reply.body.records.map((record: any) => [record.startTime, record.podId, cents(record.gpuAmount), cents(record.diskAmount)])).toEqual(
		expected.map((amounts, index) => [`2026-12-01T0${6 + index}:00:00Z`, pod.id, cents(amounts.gpu), cents(amounts.disk)]),
	);
	const total = expected.reduce((sum, amounts) => sum + amounts.gpu + amounts.disk, 0);
	expect(cents(reply.body.metadata.totals.totalAmount)).toBe(cents(total));
	expect(reply.body.metadata).toMatchObject({recordCount: 4, uniquePodCount: 1, query: {bucketSize: 'hour', podId: null}});

	// The account's bill holds the same, by category; the run from 09:10 shows once it closes.
	const account = await get('/v2/billing?bucketSize=hour&lastN=1');
	expect(account.body.records).toHaveLength(1);
	expect(account.body.records[0]).toMatchObject({startTime: '2026-12-01T09:00:00Z', endTime: '2026-12-01T10:00:00Z'});
	expect(cents(account.body.records[0].podGpuAmount)).toBe(cents(perHourRunning.gpu / 6));
	advance(60_000);
	const later = await get('/v2/billing?bucketSize=hour&lastN=1');
	expect(cents(later.body.records[0].podGpuAmount)).toBe(cents(perHourRunning.gpu / 4));
});

test('serverless workers are billed for their GPUs at the pool price plus the fee; public endpoints bill the account nothing', async () => {
	const {advance, get} = await clockedSim({
		startAt,
		pastMs: startAt - origin,
		endpoints: [
			{id: 'ep-steady', workersMin: 2, workersMax: 2, gpuIds: 'AMPERE_24', gpuCount: 1},
			{id: 'ep-public', workersMin: 1, workersMax: 1, gpuIds: 'AMPERE_24', public: true},
		],
	});
	advance(4 * hour);
	// From 07:00 both workers have long been placed: two GPUs of the pool, every hour.
	const reply = await get('/v2/billing/serverless?bucketSize=hour&startTime=2026-12-01T07:00:00Z&endTime=2026-12-01T10:00:00Z');
	const gpuPerHour = 2 * serverlessPoolPrices.AMPERE_24!;
	expect(reply.body.records.map((record: any) => [record.serverlessId, cents(record.gpuAmount), cents(record.feeAmount)])).toEqual(
		Array.from({length: 3}, () => ['ep-steady', cents(gpuPerHour), cents(gpuPerHour * billingPrices.serverlessFeeShare)]),
	);
	expect(reply.body.metadata.uniqueServerlessCount).toBe(1);
	const filtered = await get('/v2/billing/serverless?bucketSize=hour&lastN=2&serverlessId=ep-public');
	expect(filtered.body.records).toEqual([]);
	expect(filtered.body.metadata.query.serverlessId).toBe('ep-public');
	const endpoints = await get('/v2/billing/endpoints?lastN=3');
	expect(endpoints.body.records.map((record: any) => record.totalAmount)).toEqual([0, 0, 0]);
	expect(endpoints.body.metadata.totals).toEqual({totalAmount: 0});
});

test('the fleet the simulator starts with is billed for what it did before: days of spend at once', async () => {
	const {sim, get} = await clockedSim({startAt, pastMs: startAt - origin, podCount: 12});
	const running = sim.pods.list().filter(pod => pod.desiredStatus === 'RUNNING');
	const reply = await get('/v2/billing/pods?bucketSize=day&lastN=10');
	const days = new Set(reply.body.records.map((record: any) => record.startTime));
	expect(days.size).toBeGreaterThan(5);
	// The longest-running pod is billed for each whole day since it started, at its $/h.
	const oldest = running.reduce((a, b) => (a.startedAt! < b.startedAt! ? a : b));
	const fullDay = reply.body.records.find((record: any) => record.podId === oldest.id && Date.parse(record.startTime) > oldest.startedAt!);
	expect(cents(fullDay.gpuAmount)).toBe(cents(oldest.costPerHr * 24));
	// A stopped pod's volume is billed for the 30 days the bills reach back.
	const stopped = sim.pods.list().find(pod => pod.desiredStatus !== 'RUNNING')!;
	const stoppedBill = await get(`/v2/billing/pods?bucketSize=day&startTime=2026-11-20T00:00:00Z&endTime=2026-11-21T00:00:00Z&podId=${stopped.id}`);
	expect(stoppedBill.body.records).toHaveLength(1);
	expect(cents(stoppedBill.body.records[0].diskAmount)).toBe(cents(stopped.volumeInGb * billingPrices.stoppedVolumePerGbHour * 24));
	expect(stoppedBill.body.records[0].gpuAmount).toBe(0);
});

test('windows: day buckets by default, lastN ends with the bucket in progress, the edges are snapped, weeks start on Monday', async () => {
	const {advance, get} = await clockedSim({startAt, pastMs: startAt - origin, podCount: 3});
	advance(3 * hour + 7 * 60_000);
	const byDefault = await get('/v2/billing');
	expect(byDefault.body.metadata.query).toEqual({startTime: '2026-11-01T00:00:00Z', endTime: '2026-12-02T00:00:00Z', bucketSize: 'day'});
	expect(byDefault.body.records).toHaveLength(31);
	const snapped = await get('/v2/billing?bucketSize=hour&startTime=2026-12-01T06:30:00Z&endTime=2026-12-01T08:00:00Z');
	expect(snapped.body.metadata.query).toMatchObject({startTime: '2026-12-01T06:00:00Z', endTime: '2026-12-01T08:00:00Z'});
	expect(snapped.body.records.map((record: any) => record.endTime)).toEqual(['2026-12-01T07:00:00Z', '2026-12-01T08:00:00Z']);
	const weeks = await get('/v2/billing?bucketSize=week&lastN=2');
	// 2026-12-01 is a Tuesday.
	expect(weeks.body.metadata.query).toMatchObject({startTime: '2026-11-23T00:00:00Z', endTime: '2026-12-07T00:00:00Z'});
	const months = await get('/v2/billing?bucketSize=month&lastN=2');
	expect(months.body.records.map((record: any) => record.startTime)).toEqual(['2026-11-01T00:00:00Z', '2026-12-01T00:00:00Z']);
	const {totals} = months.body.metadata;
	expect(cents(totals.totalAmount)).toBe(cents(months.body.records.reduce((sum: number, record: any) => sum + record.totalAmount, 0)));
	const year = await get('/v2/billing?bucketSize=year&lastN=1');
	expect(cents(year.body.records[0].totalAmount)).toBe(cents(totals.totalAmount));
});

test('bad input is 400 as problem+json, listing what is wrong', async () => {
	const {get} = await clockedSim({startAt, pastMs: startAt - origin});
	for (const query of [
		'bucketSize=minute',
		'lastN=0',
		'lastN=2&startTime=2026-11-01T00:00:00Z',
		'startTime=yesterday',
		'startTime=2026-12-01T00:00:00Z&endTime=2026-11-01T00:00:00Z',
		'bucketSize=hour&startTime=2020-01-01T00:00:00Z',
	]) {
		const reply = await get(`/v2/billing/pods?${query}`);
		expect(reply.status, query).toBe(400);
		expect(reply.headers['content-type']).toBe('application/problem+json');
		expect(reply.body.errors.length, query).toBeGreaterThan(0);
	}
});

test('a team Dev key reads the fleet but not billing: 403', async () => {
	const {get} = await clockedSim({startAt, pastMs: startAt - origin, podCount: 2});
	expect((await get('/v2/pods', 'dev-key')).status).toBe(200);
	for (const path of [
		'/v2/billing',
		'/v2/billing/pods',
		'/v2/billing/serverless',
		'/v2/billing/network-volumes',
		'/v2/billing/endpoints',
		'/v2/billing/clusters',
	]) {
		const reply = await get(path, 'dev-key');
		expect(reply.status, path).toBe(403);
		expect(reply.body.detail).toMatch(/billing/);
		expect((await get(path)).status, path).toBe(200);
	}
});

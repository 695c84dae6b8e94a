import {expect, test} from 'vitest';
import {App} from '../../source/dashboard/app.js';
import {GpuDetail} from '../../source/panes/gpu-detail.js';
import {recordHistory} from '../helpers/recorded-history.js';
import {frameMatching, renderWith, testStore, tick} from '../helpers/ui-fixture.js';

test('Enter on a GPU type shows every price, the lowest now, counts, compliance and stock history; Esc goes back', async () => {
	const state = testStore();
	const record = {
		id: 'NVIDIA H100 80GB HBM3',
		displayName: 'H100 SXM',
		manufacturer: 'Nvidia',
		memoryInGb: 80,
		maxGpuCount: 8,
		securePrice: 2.99,
		communityPrice: 2.69,
		secureSpotPrice: 1.75,
		communitySpotPrice: 1.5,
		oneWeekPrice: 2.84,
		oneMonthPrice: 2.69,
		threeMonthPrice: 2.54,
		sixMonthPrice: 2.39,
		lowestPrice: {
			stockStatus: 'Low',
			maxUnreservedGpuCount: 2,
			availableGpuCounts: [1, 2],
			minimumBidPrice: 1.5,
			uninterruptablePrice: 2.69,
			compliance: ['GDPR', 'SOC_2_TYPE_2'],
		},
	};
	state.writes.setGpuTypes([record], 0);
	state.writes.setGpuTypes([{...record, lowestPrice: {...record.lowestPrice, stockStatus: 'High'}}], 1);
	state.writes.reportSource('graphql', Date.now());
	const {lastFrame, stdin} = renderWith(state, <App readOnly={false} />, {view: {columns: 140, rows: 30}});
	await tick();
	stdin.write('3');
	await frameMatching(lastFrame, /GPUs \(1\)/);
	stdin.write('\r');
	const frame = await frameMatching(lastFrame, /H100 SXM \(NVIDIA H100 80GB HBM3\) · Nvidia · 80 GB {2}Esc back/);
	expect(frame).toMatch(/stock +●●● High/);
	expect(frame).toMatch(/on demand +secure \$2\.99\/h · community \$2\.69\/h/);
	expect(frame).toMatch(/lowest now +\$2\.69\/h uninterruptable · spot from \$1\.50\/h \(minimum bid\)/);
	expect(frame).toMatch(/spot +secure \$1\.75\/h · community \$1\.50\/h/);
	expect(frame).toMatch(/committed +1 week \$2\.84 · 1 month \$2\.69 · 3 months \$2\.54 · 6 months \$2\.39 per GPU-hour/);
	expect(frame).toMatch(/counts +up to 8 per pod · 2 unreserved now · rentable at once: 1, 2/);
	expect(frame).toMatch(/compliance +GDPR SOC2/);
	expect(frame).toMatch(/history +▄█ +stock over the last 2 polls/);
	stdin.write('\u001B');
	await frameMatching(lastFrame, /GPUs \(1\)/);
});

test('the price charts’ legends say the prices the details say: the newest, not a mean of the last column', async () => {
	// The spot price drifts a cent a minute: the chart's last column (a day's window) holds ten minutes of it.
	const recorded = await recordHistory(
		{
			queue: () => 0,
			completed: () => 0,
			failed: () => 0,
			running: () => 0,
			util: () => 0,
			stock: () => 'Low',
			bid: minute => 1.5 + minute / 100,
		},
		{minutes: 10, everyMs: 30_000},
	);
	const rendered = renderWith(recorded, <GpuDetail gpuId='NVIDIA H100 80GB HBM3' width={120} height={36} />, {
		engine: recorded.engine,
		view: {views: [{type: 'list'}, {type: 'gpu', gpuId: 'NVIDIA H100 80GB HBM3'}]},
	});
	try {
		const frame = await frameMatching(rendered.lastFrame, /min bid \$/);
		expect(frame).toMatch(/spot +secure \$1\.80\/h · community \$1\.60\/h/);
		expect(frame).toMatch(/spot \$\/h {2}secure \$1\.80 {2}community \$1\.60 {2}min bid \$1\.60/);
		expect(frame).toMatch(/on demand \$\/h {2}secure \$2\.99 {2}community \$2\.69/);
	} finally {
		rendered.unmount();
		recorded.close();
	}
});

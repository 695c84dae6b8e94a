import {expect, test} from 'vitest';
import {App} from '../../source/dashboard/app.js';
import {frameMatching, renderWith, testStore} from '../helpers/ui-fixture.js';

const stocks = ['High', 'Medium', 'Low', 'None'] as const;

/** 40 GPU types, two-digit counts of each stock: the stock line is as long as it gets. */
function gpuStore() {
	const state = testStore();
	state.writes.setGpuTypes(
		Array.from({length: 40}, (_, index) => ({
			id: `GPU ${index}`,
			displayName: `GPU ${index}`,
			memoryInGb: 24,
			securePrice: 0.5 + index / 10,
			communityPrice: 0.3,
			lowestPrice: {stockStatus: stocks[index % 3 === 0 && index > 30 ? 3 : index % 3], maxUnreservedGpuCount: index % 9, minimumBidPrice: 0.2},
		})),
		0,
	);
	state.writes.reportSource('graphql', Date.now());
	return state;
}

/** Every terminal size a pane is drawn at: compact and wide, short and tall. */
const sizes = [
	[120, 40],
	[80, 24],
	[100, 30],
	[81, 25],
	[160, 48],
	[109, 24],
	[110, 40],
	[200, 60],
	[90, 20],
] as const;

test('a resize between every pane size, 180 times: the GPUs pane keeps its stock line to one line and its column header under it', async () => {
	const {lastFrame, view} = renderWith(gpuStore(), <App readOnly={false} />, {view: {pane: 'gpus'}});
	await frameMatching(lastFrame, /GPUs \(40\)/);
	for (let round = 0; round < 180; round++) {
		const [columns, rows] = sizes[round % sizes.length]!;
		const [fromColumns] = sizes[(round + 1) % sizes.length]!;
		view.dispatch({type: 'resize', columns, rows});
		// The frame at the new width: the tabs line is padded out to it.
		const frame = await frameMatching(lastFrame, new RegExp(`^ Endpoints 0.{${columns - 12}}$`, 'm'));
		const lines = frame.split('\n');
		expect(lines[2], `${fromColumns} → ${columns}×${rows}:\n${frame}`).toMatch(/^GPUs \(40\)/);
		expect(lines[3], `${columns}×${rows}:\n${frame}`).toMatch(/^stock /);
		expect(lines[4], `${columns}×${rows}:\n${frame}`).toMatch(/^GPU TYPE/);
		expect(lines.length).toBeLessThanOrEqual(rows - 1);
	}
}, 120_000);

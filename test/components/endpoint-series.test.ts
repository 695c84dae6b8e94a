import {afterAll, expect, test} from 'vitest';
import {endpointColumns} from '../../source/components/endpoint-charts/endpoint-series.js';
import {withCurrent} from '../../source/components/use-series/live-tail.js';
import {seriesCache} from '../../source/components/use-series/series-cache.js';
import {endpointStateSample} from '../../source/history/fields.js';
import {recordHistory, type Recorded} from '../helpers/recorded-history.js';

/** 30 jobs completed a minute, none failed: every column of jobs finished is 30 a minute. */
const script = {
	queue: () => 3,
	completed: () => 30,
	failed: () => 0,
	running: () => 2,
	util: () => 50,
	stock: () => 'High' as const,
	bid: () => 1.5,
};

const minute = 60_000;
const opened: Recorded[] = [];
afterAll(() => {
	for (const recorded of opened) {
		recorded.close();
	}
});

// It failed in CI twice: the live hour's last column showed 2.5k/m a second after a minute began, then 45/m when the
// minute's last column (75 s at 48 columns) held two minute points, which happens 4 minutes in 60: the grid's alignment
// repeats every 15 minutes, so the recording ends at five minutes of that quarter as well as at six moments of a minute.
test.each([0, 500, 1000, 5000, 29_000, 45_000])(
	'jobs finished a minute stays the rate it was, whenever the chart asks (the last poll %i ms after a minute began)',
	async offset => {
		const quarter = Math.floor(Date.now() / (15 * minute)) * 15 * minute - 60 * minute;
		for (const minutes of [0, 3, 6, 9, 12]) {
			const end = quarter + minutes * minute + offset;

			const recorded = await recordHistory(script, {minutes: 90, everyMs: 30_000, end});
			opened.push(recorded);
			const current = new Map([['ep1', endpointStateSample(recorded.store.getState().endpoints.byId.ep1!)!]]);
			for (const lag of [100, 1000, 5000, 20_000]) {
				// One hour at the widths a terminal gives it: the minute tier and its unrolled newest minute, read live.
				for (const columns of [48, 56]) {
					const where = `${minutes} min into the quarter, lag ${lag}, ${columns} columns`;

					const asked = await seriesCache(recorded.reader).ask({kind: 'endpoint', keys: ['ep1'], windowMs: 60 * minute, columns, at: undefined}, end + lag);
					const answer = withCurrent(asked, 'endpoint', current);
					const series = answer.byKey.get('ep1')!;
					const {finished, finishedMean} = endpointColumns(series.points, series.fields, answer.grid, answer.holdMs, answer.pointMs, answer.askedAt);
					const drawn = finished.filter((value): value is number => value !== null);
					expect(drawn.length, where).toBeGreaterThan(columns - 5);
					expect(Math.max(...drawn), where).toBeLessThanOrEqual(36);
					expect(Math.min(...drawn), where).toBeGreaterThanOrEqual(24);
					expect(finishedMean, where).toBeCloseTo(30, -0.5);
				}
			}
		}
	},
);

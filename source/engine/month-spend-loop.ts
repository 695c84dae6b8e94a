import {createLoop, type Loop} from '../poll/loop.js';
import type {ScheduledApi} from '../poll/scheduled-api.js';
import {dayMs, utcDay, utcMonth} from '../store/month-forecast.js';
import type {StoreWrites} from '../store/create-store.js';
import {spendReport} from './spend-report.js';

/** The service bills in 5-minute runs: reading the month's bills more often shows nothing new. */
export const monthSpendEveryMs = 300_000;

type Options = {
	readonly api: ScheduledApi;
	readonly writes: Pick<StoreWrites, 'setMonthSpend'>;
	readonly now?: () => number;
	readonly everyMs?: number;
};

/**
Reads the account's bills of this month so far (UTC days, one request) every 5 minutes, in the background, for a
`budget` rule's forecast. A failed read keeps the last one (a key without billing simply never fires the rule).
*/
export function createMonthSpendLoop({api, writes, now = Date.now, everyMs = monthSpendEveryMs}: Options): Loop {
	return createLoop(
		async () => {
			const at = now();
			const report = await spendReport(api, {bucketSize: 'day', from: utcMonth(at), to: utcDay(at) + dayMs}, 'category', 'background');
			writes.setMonthSpend({buckets: report.rows.map(({from, to, total}) => ({from, to, total})), readAt: at});
		},
		() => everyMs,
	);
}

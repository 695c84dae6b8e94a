import type {BillLedger} from '../history/bill-ledger.js';
import type {SpendQuery, SpendResourceKind} from '../model/spend.js';
import type {Priority} from '../poll/scheduler.js';
import {billsOf, keepBills, planRead, type SpendReads} from './billed-spend.js';

/** A resource's spend over a window: its total, and its $/h in the window's last bucket that closed (0 when it cost nothing then). */
export type ResourceTotal = {readonly resourceId: string; readonly total: number; readonly perHour: number};

/** What the Spend pane lists of a kind over a window: each resource's total, in no order. */
export type KindTotals = {readonly kind: SpendResourceKind; readonly resources: readonly ResourceTotal[]};

/** Over which buckets: those that start in [start, the read's end) for each start asked, the last closed one being the latest with spend that ended by `closedBy`. */
export type TotalsWindows = {readonly starts: readonly number[]; readonly closedBy: number};

type Bucket = {readonly from: number; readonly to: number; readonly rows: ReadonlyArray<{readonly resourceId: string; readonly total: number}>};

/** Totals summed from buckets held in memory (a service's answer). */
function totalsOfBuckets(buckets: readonly Bucket[], from: number, closedBy: number): Map<string, {total: number; perHour: number}> {
	const shown = buckets.filter(bucket => bucket.from >= from);
	const last = shown.findLast(bucket => bucket.to <= closedBy && bucket.rows.length > 0);
	const totals = new Map<string, {total: number; perHour: number}>();
	for (const bucket of shown) {
		for (const row of bucket.rows) {
			const line = totals.get(row.resourceId) ?? {total: 0, perHour: 0};
			line.total += row.total;
			if (bucket === last) {
				line.perHour += row.total / ((bucket.to - bucket.from) / 3_600_000);
			}

			totals.set(row.resourceId, line);
		}
	}

	return totals;
}

const asTotals = (kind: SpendResourceKind, totals: ReadonlyMap<string, {total: number; perHour: number}>): KindTotals => ({
	kind,
	resources: [...totals].map(([resourceId, {total, perHour}]) => ({resourceId, total, perHour})),
});

/**
Each resource's totals over windows of a spend read, for the Spend pane: through the history file's bills, what the ledger
holds is summed in SQL (30 days of 10,000 pods are 300,000 rows, never read one by one), and only the span of buckets it lacks
or that were open is asked of the service (and kept), as `billedSpend` reads. Without a ledger (no history, or attached to an
agent: `api` then reads through it), the kind's records are read whole and summed here.
*/
export function billedTotals(api: SpendReads, ledgerOf: () => BillLedger | undefined, now: () => number = Date.now) {
	return async (kind: SpendResourceKind, query: SpendQuery, windows: TotalsWindows, priority: Priority): Promise<KindTotals[] | undefined> => {
		const ledger = ledgerOf();
		const read = ledger && planRead(ledger, kind, query, now(), false);
		if (!ledger || !read) {
			const answer = await api.resourceSpend(kind, query, priority);
			if (!answer) {
				return undefined;
			}

			const buckets = billsOf(answer.window, answer.records, now());
			return windows.starts.map(start => asTotals(kind, totalsOfBuckets(buckets, start, windows.closedBy)));
		}

		let fetched: readonly Bucket[] = [];
		let skip: readonly [number, number] | undefined;
		if (read.ask) {
			const answer = await api.resourceSpend(kind, read.ask, priority);
			if (!answer) {
				return undefined;
			}

			const bills = billsOf(answer.window, answer.records, now());
			keepBills(ledger, kind, query.bucketSize, bills, answer);
			fetched = bills;
			skip = [answer.window.from, answer.window.to];
		}

		// The ledger's buckets outside the span just read (which may not have been kept: another podtop holds the file), summed in SQL.
		const span = {from: Math.max(Math.min(...windows.starts), read.edges[0]!), to: read.edges.at(-1)!, skip};
		const keptLast = ledger.lastClosed(kind, query.bucketSize, span, windows.closedBy);
		const fetchedLast = fetched.findLast(bucket => bucket.from >= span.from && bucket.to <= windows.closedBy && bucket.rows.length > 0);
		const last = keptLast && (!fetchedLast || keptLast[0] > fetchedLast.from) ? keptLast : undefined;
		const sums = ledger.sums(kind, query.bucketSize, span, windows.starts, last?.[0]);
		return windows.starts.map((start, index) => {
			const totals = totalsOfBuckets(
				fetched.filter(bucket => bucket.from < span.to),
				start,
				last ? -Infinity : windows.closedBy,
			);
			for (const {resourceId, totals: kept, inBucket} of sums) {
				const total = kept[index];
				if (total === undefined) {
					continue;
				}

				const line = totals.get(resourceId) ?? {total: 0, perHour: 0};
				line.total += total;
				if (last && last[0] >= start) {
					line.perHour += inBucket / ((last[1] - last[0]) / 3_600_000);
				}

				totals.set(resourceId, line);
			}

			return asTotals(kind, totals);
		});
	};
}

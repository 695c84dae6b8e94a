import type {BillLedger, BillRoute, BillRow, StoredBill} from '../history/bill-ledger.js';
import {bucketBounds, bucketEnd, bucketStart} from '../lib/utc-buckets.js';
import {
	spendCategories,
	type AccountSpend,
	type ResourceSpend,
	type SpendCategory,
	type SpendQuery,
	type SpendResourceKind,
	type SpendWindow,
} from '../model/spend.js';
import type {Priority} from '../poll/scheduler.js';
import type {ScheduledApi} from '../poll/scheduled-api.js';

export type SpendReads = Pick<ScheduledApi, 'spend' | 'resourceSpend'>;

/**
A bucket read this long after it ended is final: the service bills in 5-minute runs, and a run may land
a little after the bucket's end (late usage). Read sooner, the bucket is asked for again (and rewritten).
*/
export const billSettleMs = 10 * 60_000;

/** The service bills in 5-minute runs (from the hour): a bucket read during the run that is still on has nothing newer to give. */
export const billingRunMs = 300_000;

/** The most buckets one read is kept for (a year of hours); a longer window goes to the service as asked. */
const maxBuckets = 8784;

/** Dollars to the millionth, as the service's answers carry them: sums of stored amounts read as the service's totals do. */
const round = (amount: number) => Math.round(amount * 1e6) / 1e6;

function addInto(sums: Partial<Record<SpendCategory, number>>, amounts: Readonly<Partial<Record<SpendCategory, number>>>): void {
	for (const [category, amount] of Object.entries(amounts) as Array<[SpendCategory, number]>) {
		sums[category] = (sums[category] ?? 0) + amount;
	}
}

const rounded = <T extends Partial<Record<SpendCategory, number>>>(sums: T): T =>
	Object.fromEntries(Object.entries(sums).map(([category, amount]) => [category, round(amount)])) as T;

/** The buckets an answer covered, each with its rows (none where nothing was billed), read at `readAt`. */
export function billsOf(window: SpendWindow, rows: ReadonlyArray<BillRow & {readonly from: number}>, readAt: number): StoredBill[] {
	const edges = bucketBounds(window.from, window.to, window.bucketSize);
	const byStart = new Map<number, BillRow[]>(edges.slice(0, -1).map(edge => [edge, []]));
	for (const {from, ...row} of rows) {
		byStart.get(from)?.push(row);
	}

	return edges.slice(0, -1).map((from, index) => ({from, to: edges[index + 1]!, readAt, rows: byStart.get(from)!}));
}

type Plan = {readonly edges: readonly number[]; readonly kept: ReadonlyMap<number, StoredBill>; readonly ask?: SpendQuery};

/**
What the ledger holds of a window (without its rows when `withRows` is false: when each bucket was read), and the one read (a span of whole buckets) that brings the rest: those never read,
or read before they settled and in an earlier billing run than this one.
*/
export function planRead(ledger: BillLedger, route: BillRoute, query: SpendQuery, now: number, withRows = true): Plan | undefined {
	if (query.lastN !== undefined || query.from === undefined) {
		return undefined;
	}

	const size = query.bucketSize;
	const from = bucketStart(query.from, size);
	const to = bucketEnd(query.to ?? now, size);
	if (to <= from || (to - from) / 3_600_000 > maxBuckets) {
		return undefined;
	}

	const edges = bucketBounds(from, to, size);
	let kept: Map<number, StoredBill>;
	try {
		kept = new Map(ledger.read(route, size, from, to, withRows).map(bill => [bill.from, bill]));
	} catch {
		kept = new Map();
	}

	const missing = edges.slice(0, -1).flatMap((edge, index) => {
		const bill = kept.get(edge);
		const current =
			bill &&
			bill.to === edges[index + 1] &&
			(bill.readAt >= bill.to + billSettleMs || Math.floor(bill.readAt / billingRunMs) === Math.floor(now / billingRunMs));
		return current ? [] : [index];
	});
	const ask = missing.length === 0 ? undefined : {bucketSize: size, from: edges[missing[0]!]!, to: edges[missing.at(-1)! + 1]!};
	return {edges, kept, ask};
}

function keep(ledger: BillLedger, route: BillRoute, size: SpendQuery['bucketSize'], bills: readonly StoredBill[], kept: Map<number, StoredBill>): void {
	for (const bill of bills) {
		kept.set(bill.from, bill);
	}

	store(ledger, route, size, bills);
}

function store(ledger: BillLedger, route: BillRoute, size: SpendQuery['bucketSize'], bills: readonly StoredBill[]): void {
	try {
		ledger.store(route, size, bills);
	} catch {
		// A full disk or a busy file: the bills read are shown all the same, and asked for again next time.
	}
}

/** The window's buckets as the ledger (with what was just read) has them, oldest first. */
function billsIn(edges: readonly number[], kept: ReadonlyMap<number, StoredBill>): StoredBill[] {
	return edges.slice(0, -1).flatMap(edge => kept.get(edge) ?? []);
}

function accountFrom(bills: readonly StoredBill[], window: SpendWindow): AccountSpend {
	const zero = Object.fromEntries(spendCategories.map(category => [category, 0])) as Record<SpendCategory, number>;
	const byCategory: Record<SpendCategory, number> = {...zero};
	const buckets = bills.flatMap(bill =>
		bill.rows.map(row => {
			addInto(byCategory, row.byCategory);
			return {from: bill.from, to: bill.to, total: row.total, byCategory: {...zero, ...row.byCategory}};
		}),
	);
	return {window, buckets, total: round(buckets.reduce((sum, bucket) => sum + bucket.total, 0)), byCategory: rounded(byCategory)};
}

function resourcesFrom(kind: SpendResourceKind, bills: readonly StoredBill[], window: SpendWindow, categories: readonly SpendCategory[]): ResourceSpend {
	const byCategory: Partial<Record<SpendCategory, number>> = Object.fromEntries(categories.map(category => [category, 0]));
	const records = bills.flatMap(bill =>
		bill.rows.map(row => {
			addInto(byCategory, row.byCategory);
			return {from: bill.from, to: bill.to, resourceId: row.resourceId, total: row.total, byCategory: row.byCategory};
		}),
	);
	return {kind, window, records, total: round(records.reduce((sum, record) => sum + record.total, 0)), byCategory: rounded(byCategory)};
}

/** Each kind's categories, learned from its answers (the same every time): a window read whole from the ledger totals them too. */
const kindCategories = new Map<SpendResourceKind, readonly SpendCategory[]>();

/** Keeps the buckets of a kind's answer in the ledger (and the kind's categories, learned from it). */
export function keepBills(
	ledger: BillLedger,
	kind: SpendResourceKind,
	size: SpendQuery['bucketSize'],
	bills: readonly StoredBill[],
	answer: ResourceSpend,
): void {
	kindCategories.set(kind, Object.keys(answer.byCategory) as SpendCategory[]);
	store(ledger, kind, size, bills);
}

/**
The spend reads through the history file's bills: a window's buckets come from the file, and the service is asked
only for the span of those it lacks or that were still open when read (the bucket in progress, always). What it
answers is kept, each bucket written whole. Without a ledger (no history), a `lastN` query, or a window of more than
a year of hours, the service is asked as before.
*/
export function billedSpend(api: SpendReads, ledgerOf: () => BillLedger | undefined, now: () => number = Date.now): SpendReads {
	return {
		async spend(query: SpendQuery, priority: Priority) {
			const ledger = ledgerOf();
			const at = now();
			const read = ledger && planRead(ledger, 'account', query, at);
			if (!ledger || !read) {
				return api.spend(query, priority);
			}

			const window: SpendWindow = {from: read.edges[0]!, to: read.edges.at(-1)!, bucketSize: query.bucketSize};
			const kept = new Map(read.kept);
			if (read.ask) {
				const answer = await api.spend(read.ask, priority);
				if (!answer) {
					return undefined;
				}

				const rows = answer.buckets.map(bucket => ({from: bucket.from, resourceId: '', total: bucket.total, byCategory: bucket.byCategory}));
				keep(ledger, 'account', query.bucketSize, billsOf(answer.window, rows, at), kept);
			}

			return accountFrom(billsIn(read.edges, kept), window);
		},
		async resourceSpend(kind: SpendResourceKind, query: SpendQuery, priority: Priority) {
			const ledger = ledgerOf();
			const at = now();
			const read = ledger && planRead(ledger, kind, query, at);
			if (!ledger || !read) {
				return api.resourceSpend(kind, query, priority);
			}

			const window: SpendWindow = {from: read.edges[0]!, to: read.edges.at(-1)!, bucketSize: query.bucketSize};
			const kept = new Map(read.kept);
			if (read.ask) {
				const answer = await api.resourceSpend(kind, read.ask, priority);
				if (!answer) {
					return undefined;
				}

				kindCategories.set(kind, Object.keys(answer.byCategory) as SpendCategory[]);
				keep(ledger, kind, query.bucketSize, billsOf(answer.window, answer.records, at), kept);
			}

			return resourcesFrom(kind, billsIn(read.edges, kept), window, kindCategories.get(kind) ?? []);
		},
	};
}

import {useEffect, useState} from 'react';
import {ApiError} from '../api/errors.js';
import {useServices} from '../components/services.js';
import type {Engine} from '../engine/create-engine.js';
import type {ResourceTotal} from '../engine/spend-report.js';
import type {SpendSplit} from '../model/spend.js';
import {spendQueries, type SpendRow} from '../rows/spend-figures.js';
import type {SpendWindowName} from '../view-state/view-state.js';

/** How often the shown pane reads the bills again: the service bills in 5-minute runs, so a read per route per run is all there is to see. */
export const spendRefreshMs = 300_000;

const resourceSplits = ['pod', 'endpoint', 'volume'] as const satisfies readonly SpendSplit[];
export type ResourceSplit = (typeof resourceSplits)[number];

/** A resource's spend over the window, and its spend in the window's last bucket that closed (its $/h lately). */
export type ResourceSpendLine = ResourceTotal & {readonly kind: ResourceSplit; readonly lastClosed: number};

export type SpendData = {
	readonly account: readonly SpendRow[];
	readonly resources: readonly ResourceSpendLine[];
	/** Where the window's buckets start and end (epoch ms, UTC). */
	readonly from: number;
	readonly to: number;
	/** The moment the window ends at: now when read live, or the time cursor's. */
	readonly readAt: number;
};

export type SpendRead = {readonly data?: SpendData; readonly problem?: string; readonly loading: boolean};

/** What a failed read says in the pane: a key without the billing role, a service with no bills (GraphQL), or the error. */
export function spendProblem(error: unknown): string {
	if (error instanceof ApiError && error.kind === 'forbidden') {
		return 'this key cannot read billing (a team Dev key?)';
	}

	if (error instanceof ApiError && error.kind === 'invalid' && error.message.includes('GraphQL does not publish bills')) {
		return 'no bills: REST v2 publishes them';
	}

	return `billing: ${error instanceof Error ? error.message : String(error)}`;
}

/** What one read of the bills brought: the account's rows, and for each window it serves each resource's line, up to `readAt`. */
type BillsRead = {readonly account: readonly SpendRow[]; readonly lines: ReadonlyMap<SpendWindowName, readonly ResourceSpendLine[]>; readonly readAt: number};

/** The windows one read serves: 7d and 30d share one daily read (the 30 days), so their days are the same figures. */
const readKey = (window: SpendWindowName): SpendWindowName => (window === '7d' ? '30d' : window);
const servedBy = (window: SpendWindowName): readonly SpendWindowName[] => (window === '30d' ? ['30d', '7d'] : [window]);

/** A window's figures from a read: each kind's resources with their total over the window's buckets alone (the costliest first) and $/h in the last bucket that closed. */
function dataFor(window: SpendWindowName, read: BillsRead): SpendData {
	const queries = spendQueries(window, read.readAt);
	return {account: read.account, resources: read.lines.get(window) ?? [], from: queries.from, to: queries.resources.to!, readAt: read.readAt};
}

/**
The bills of the window ending at `at` (now, or the time cursor's moment): the account's rows, and each kind's totals over
each window the read serves, summed by the engine (in the history file) rather than carried bucket by bucket.
*/
async function readBills(engine: Engine, window: SpendWindowName, at: number): Promise<BillsRead> {
	const queries = spendQueries(window, at);
	const windows = servedBy(window);
	const starts = windows.map(each => spendQueries(each, at).from);
	const [account, ...kinds] = await Promise.all([
		engine.spend(queries.account, 'category'),
		...resourceSplits.map(async split => engine.spendTotals(queries.resources, split, {starts, closedBy: at})),
	]);
	const lines = new Map(
		windows.map((each, index) => [each, kinds.flatMap((perWindow, kind) => perWindow[index]!.map(line => ({...line, kind: resourceSplits[kind]!})))]),
	);
	return {account: account.rows, lines, readAt: at};
}

type LastRead = {readonly at: number; readonly bills?: BillsRead; readonly problem?: string};

/** Which read: a read key's window, live or ending at the time cursor's moment. */
type ReadKey = `${SpendWindowName}@${number | 'live'}`;
type Reads = Map<ReadKey, LastRead>;

/**
The last read of each read key (and of each moment the cursor showed), per engine: coming back to the pane, or to
a window, within 5 minutes shows it again without asking (the pane reads at most once per billing route per 5
minutes); a moment in the past is read once.
*/
const lastReads = new WeakMap<Engine, Reads>();

/** Moments in the past kept per engine (each is 4 reports): the cursor stepping back and forth finds the last ones. */
const pastReadsKept = 24;

/** A cursor stepped in a row (`[` held) reads only where it stops: a moment shown this long. */
export const pastReadDelayMs = 250;

function readsOf(engine: Engine): Reads {
	const reads = lastReads.get(engine) ?? new Map<ReadKey, LastRead>();
	lastReads.set(engine, reads);
	return reads;
}

/** Keeps a read, and of the moments in the past only the newest `pastReadsKept` (a Map iterates oldest first). */
function keep(reads: Reads, key: ReadKey, entry: LastRead): void {
	reads.delete(key);
	reads.set(key, entry);
	const past = [...reads.keys()].filter(each => !each.endsWith('@live'));
	for (const old of past.slice(0, Math.max(0, past.length - pastReadsKept))) {
		reads.delete(old);
	}
}

/** Each read's figures per window, derived once (30 days of 10,000 pods' rows), not at every frame. */
const derived = new WeakMap<BillsRead, Map<SpendWindowName, SpendData>>();

function dataOnce(window: SpendWindowName, bills: BillsRead): SpendData {
	const windows = derived.get(bills) ?? new Map<SpendWindowName, SpendData>();
	derived.set(bills, windows);
	const data = windows.get(window) ?? dataFor(window, bills);
	windows.set(window, data);
	return data;
}

const shownAs = (window: SpendWindowName, read: LastRead | undefined): SpendRead | undefined =>
	read && {data: read.bills && dataOnce(window, read.bills), problem: read.problem, loading: false};

const loading: SpendRead = {loading: true};

/**
The Spend pane's bills for `window`, ending now (read while the pane is shown, again every 5 minutes) or at the time
cursor's moment `cursor` (read once, when the cursor rests there). Another window's or moment's bills are never shown
for this one (they are drawn in buckets of their own): until this one's are read, none.
*/
export function useSpend(window: SpendWindowName, cursor?: number): SpendRead {
	const {engine} = useServices();
	const readWindow = readKey(window);
	const key: ReadKey = `${readWindow}@${cursor ?? 'live'}`;
	const [shown, setShown] = useState<{readonly key: ReadKey; readonly read: LastRead} | undefined>(undefined);
	useEffect(() => {
		if (!engine) {
			return;
		}

		let stopped = false;
		let timer: NodeJS.Timeout | undefined;
		const reads = readsOf(engine);
		const schedule = (at: number) => {
			timer = setTimeout(
				() => {
					void run();
				},
				Math.max(0, at + spendRefreshMs - Date.now()),
			);
		};

		const run = async () => {
			const now = Date.now();
			let next: LastRead;
			try {
				next = {at: now, bills: await readBills(engine, readWindow, cursor ?? now)};
			} catch (error) {
				next = {at: now, bills: reads.get(key)?.bills, problem: spendProblem(error)};
			}

			keep(reads, key, next);
			if (!stopped) {
				setShown({key, read: next});
				// The past is billed: read again only what ends now, or a moment whose read failed.
				if (cursor === undefined || next.problem !== undefined) {
					schedule(now);
				}
			}
		};

		const last = reads.get(key);
		if (last && cursor !== undefined && last.problem === undefined) {
			// A moment in the past, read before: nothing new to ask.
		} else if (last && Date.now() - last.at < spendRefreshMs) {
			schedule(last.at);
		} else if (cursor === undefined) {
			void run();
		} else {
			timer = setTimeout(() => {
				void run();
			}, pastReadDelayMs);
		}

		return () => {
			stopped = true;
			clearTimeout(timer);
		};
	}, [engine, readWindow, cursor, key]);
	const read = shown?.key === key ? shown.read : engine ? lastReads.get(engine)?.get(key) : undefined;
	return shownAs(window, read) ?? loading;
}

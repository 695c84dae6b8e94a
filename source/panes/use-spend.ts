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

/** Which read: a window, live or ending at the time cursor's moment. */
type ReadKey = `${SpendWindowName}@${number | 'live'}`;

/**
The last read of each window (and of each moment the cursor showed), per engine: coming back to the pane, or to
a window, within 5 minutes shows it again without asking (the pane reads at most once per billing route per 5
minutes); a moment in the past is read once.
*/
const lastReads = new WeakMap<Engine, Map<ReadKey, {readonly at: number; readonly read: SpendRead}>>();

/** Moments in the past kept per engine (each is 4 reports): the cursor stepping back and forth finds the last ones. */
const pastReadsKept = 24;

/** A cursor stepped in a row (`[` held) reads only where it stops: a moment shown this long. */
export const pastReadDelayMs = 250;

/** The window ending at `at` (now, or the time cursor's moment), through the engine's spend reports. */
async function readSpend(engine: Engine, window: SpendWindowName, at: number): Promise<SpendData> {
	const queries = spendQueries(window, at);
	const [account, ...reports] = await Promise.all([
		engine.spend(queries.account, 'category'),
		...resourceSplits.map(async split => engine.spend(queries.resources, split)),
	]);
	const resources = reports.flatMap((report, index) => {
		const kind = resourceSplits[index]!;
		// The last bucket that closed before the moment (the one in progress is billed so far only).
		const closed = report.rows.filter(row => row.to <= at);
		const lastFrom = Math.max(-Infinity, ...closed.map(row => row.from));
		return report.resources.map(resource => ({
			...resource,
			kind,
			lastClosed: closed.reduce((sum, row) => (row.id === resource.id && row.from === lastFrom ? sum + row.total / ((row.to - row.from) / 3_600_000) : sum), 0),
		}));
	});
	return {account: account.rows, resources, from: queries.from, to: queries.resources.to!, readAt: at};
}

type WindowReads = Map<ReadKey, {readonly at: number; readonly read: SpendRead}>;

function readsOf(engine: Engine): WindowReads {
	const reads = lastReads.get(engine) ?? new Map<ReadKey, {readonly at: number; readonly read: SpendRead}>();
	lastReads.set(engine, reads);
	return reads;
}

/** Keeps a read, and of the moments in the past only the newest `pastReadsKept` (a Map iterates oldest first). */
function keep(reads: WindowReads, key: ReadKey, entry: {readonly at: number; readonly read: SpendRead}): void {
	reads.delete(key);
	reads.set(key, entry);
	const past = [...reads.keys()].filter(each => !each.endsWith('@live'));
	for (const old of past.slice(0, Math.max(0, past.length - pastReadsKept))) {
		reads.delete(old);
	}
}

const loading: SpendRead = {loading: true};

/**
The Spend pane's bills for `window`, ending now (read while the pane is shown, again every 5 minutes) or at the time
cursor's moment `cursor` (read once, when the cursor rests there). Another window's or moment's bills are never shown
for this one (they are drawn in buckets of their own): until this one's are read, none.
*/
export function useSpend(window: SpendWindowName, cursor?: number): SpendRead {
	const {engine} = useServices();
	const key: ReadKey = `${window}@${cursor ?? 'live'}`;
	const [shown, setShown] = useState<{readonly key: ReadKey; readonly read: SpendRead} | undefined>(undefined);
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
			let next: SpendRead;
			try {
				next = {data: await readSpend(engine, window, cursor ?? now), loading: false};
			} catch (error) {
				next = {...reads.get(key)?.read, loading: false, problem: spendProblem(error)};
			}

			keep(reads, key, {at: now, read: next});
			if (!stopped) {
				setShown({key, read: next});
				// The past is billed: read again only what ends now, or a moment whose read failed.
				if (cursor === undefined || next.problem !== undefined) {
					schedule(now);
				}
			}
		};

		const last = reads.get(key);
		if (last && cursor !== undefined && last.read.problem === undefined) {
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
	}, [engine, window, cursor, key]);
	if (shown?.key === key) {
		return shown.read;
	}

	return (engine ? lastReads.get(engine)?.get(key)?.read : undefined) ?? loading;
}

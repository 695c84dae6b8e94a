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

/**
The last read of each window, per engine: coming back to the pane, or to a window, within 5 minutes shows it
again without asking (the pane reads at most once per billing route per 5 minutes).
*/
const lastReads = new WeakMap<Engine, Map<SpendWindowName, {readonly at: number; readonly read: SpendRead}>>();

async function readSpend(engine: Engine, window: SpendWindowName, now: number): Promise<SpendData> {
	const queries = spendQueries(window, now);
	const [account, ...reports] = await Promise.all([
		engine.spend(queries.account, 'category'),
		...resourceSplits.map(async split => engine.spend(queries.resources, split)),
	]);
	const resources = reports.flatMap((report, index) => {
		const kind = resourceSplits[index]!;
		// The last bucket that closed before now (the one in progress is billed so far only).
		const closed = report.rows.filter(row => row.to <= now);
		const lastFrom = Math.max(-Infinity, ...closed.map(row => row.from));
		return report.resources.map(resource => ({
			...resource,
			kind,
			lastClosed: closed.reduce((sum, row) => (row.id === resource.id && row.from === lastFrom ? sum + row.total / ((row.to - row.from) / 3_600_000) : sum), 0),
		}));
	});
	return {account: account.rows, resources, from: queries.from, to: queries.resources.to!, readAt: now};
}

type WindowReads = Map<SpendWindowName, {readonly at: number; readonly read: SpendRead}>;

function readsOf(engine: Engine): WindowReads {
	const reads = lastReads.get(engine) ?? new Map<SpendWindowName, {readonly at: number; readonly read: SpendRead}>();
	lastReads.set(engine, reads);
	return reads;
}

const loading: SpendRead = {loading: true};

/**
The Spend pane's bills for `window`, read while the pane is shown, again every 5 minutes. Another window's
bills are never shown for this one (they are drawn in buckets of their own): until this window's are read, none.
*/
export function useSpend(window: SpendWindowName): SpendRead {
	const {engine} = useServices();
	const [shown, setShown] = useState<{readonly window: SpendWindowName; readonly read: SpendRead} | undefined>(undefined);
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
				next = {data: await readSpend(engine, window, now), loading: false};
			} catch (error) {
				next = {...reads.get(window)?.read, loading: false, problem: spendProblem(error)};
			}

			reads.set(window, {at: now, read: next});
			if (!stopped) {
				setShown({window, read: next});
				schedule(now);
			}
		};

		const last = reads.get(window);
		if (last && Date.now() - last.at < spendRefreshMs) {
			schedule(last.at);
		} else {
			void run();
		}

		return () => {
			stopped = true;
			clearTimeout(timer);
		};
	}, [engine, window]);
	if (shown?.window === window) {
		return shown.read;
	}

	return (engine ? lastReads.get(engine)?.get(window)?.read : undefined) ?? loading;
}

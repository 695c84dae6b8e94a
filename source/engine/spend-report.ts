import {ApiError} from '../api/errors.js';
import type {ScheduledApi} from '../poll/scheduled-api.js';
import type {Priority} from '../poll/scheduler.js';
import type {SpendCategory, SpendQuery, SpendResourceKind, SpendSplit, SpendWindow} from '../model/spend.js';
import type {KindTotals, TotalsWindows} from './billed-totals.js';

/** One row of a report: a bucket (by category), or a resource's bucket (by resource, with its name from the fleet, empty when gone). */
export type SpendRow = {
	readonly from: number;
	readonly to: number;
	readonly id?: string;
	readonly name?: string;
	readonly total: number;
	readonly byCategory: Readonly<Partial<Record<SpendCategory, number>>>;
};

/** A resource's spend over the whole window. */
export type ResourceTotal = {readonly id: string; readonly name: string; readonly total: number};

export type SpendReport = {
	readonly split: SpendSplit;
	readonly window: SpendWindow;
	readonly rows: readonly SpendRow[];
	readonly total: number;
	readonly byCategory: Readonly<Partial<Record<SpendCategory, number>>>;
	/** By resource: each one's total over the window, the costliest first. */
	readonly resources: readonly ResourceTotal[];
};

const kindOf: Record<Exclude<SpendSplit, 'category'>, SpendResourceKind> = {pod: 'pod', endpoint: 'endpoint', volume: 'volume'};

/** A key whose team role cannot read billing (a Dev key): said as such, exit 3. */
function forbidden(error: unknown): unknown {
	return error instanceof ApiError && error.kind === 'forbidden'
		? new ApiError('forbidden', 'this key cannot read billing (HTTP 403): its team role has no billing access; use a key with it', {status: 403})
		: error;
}

/** The fleet's names for the resources a report names (one list read at a user's priority; none for volumes, which the fleet lists nowhere). */
async function namesOf(api: ScheduledApi, split: SpendSplit): Promise<ReadonlyMap<string, string>> {
	if (split === 'pod') {
		return new Map((await api.podSummaries('action')).map(pod => [pod.id, pod.name ?? '']));
	}

	if (split === 'endpoint') {
		return new Map((await api.endpoints('action')).map(endpoint => [endpoint.id, endpoint.name ?? '']));
	}

	return new Map();
}

/**
The account's bills (REST v2) as a report: per bucket by category, or per resource per bucket with
each one's name from the fleet listed now and its total over the window. Undefined-free: an API
without bills (GraphQL) is an error saying so. Read at a user's priority unless a loop says `background`.
*/
export async function spendReport(api: ScheduledApi, query: SpendQuery, split: SpendSplit, priority: Priority = 'action'): Promise<SpendReport> {
	try {
		if (split === 'category') {
			const spend = await api.spend(query, priority);
			if (!spend) {
				throw new ApiError('invalid', 'billing: this service has no REST v2, and GraphQL does not publish bills');
			}

			const rows = spend.buckets.map(bucket => ({from: bucket.from, to: bucket.to, total: bucket.total, byCategory: bucket.byCategory}));
			return {split, window: spend.window, rows, total: spend.total, byCategory: spend.byCategory, resources: []};
		}

		const [spend, names] = await Promise.all([api.resourceSpend(kindOf[split], query, priority), namesOf(api, split)]);
		if (!spend) {
			throw new ApiError('invalid', 'billing: this service has no REST v2, and GraphQL does not publish bills');
		}

		const totals = new Map<string, number>();
		const rows = spend.records.map(record => {
			totals.set(record.resourceId, (totals.get(record.resourceId) ?? 0) + record.total);
			return {...record, id: record.resourceId, name: names.get(record.resourceId) ?? ''};
		});
		const resources = [...totals].map(([id, total]) => ({id, name: names.get(id) ?? '', total})).sort((a, b) => b.total - a.total || a.id.localeCompare(b.id));
		return {split, window: spend.window, rows, total: spend.total, byCategory: spend.byCategory, resources};
	} catch (error) {
		throw forbidden(error);
	}
}

/** A resource's spend over a window, named, and its $/h in the window's last bucket that closed. */
export type ResourceWindowTotal = ResourceTotal & {readonly lastClosed: number};

/** Where a kind's totals over windows come from: the history file's sums, or the kind's records read whole (`billedTotals`). */
export type TotalsRead = (kind: SpendResourceKind, query: SpendQuery, windows: TotalsWindows, priority: Priority) => Promise<KindTotals[] | undefined>;

/**
Each resource's total over each window (one per start in `windows`, all within `query`'s read), named from the fleet, the
costliest first: what the Spend pane lists, without carrying every resource's every bucket.
*/
export async function spendTotals(
	api: ScheduledApi,
	totals: TotalsRead,
	query: SpendQuery,
	split: Exclude<SpendSplit, 'category'>,
	windows: TotalsWindows,
	priority: Priority = 'action',
): Promise<ResourceWindowTotal[][]> {
	try {
		const [kinds, names] = await Promise.all([totals(kindOf[split], query, windows, priority), namesOf(api, split)]);
		if (!kinds) {
			throw new ApiError('invalid', 'billing: this service has no REST v2, and GraphQL does not publish bills');
		}

		return kinds.map(({resources}) =>
			resources
				.map(({resourceId, total, perHour}) => ({id: resourceId, name: names.get(resourceId) ?? '', total, lastClosed: perHour}))
				.sort((a, b) => b.total - a.total || a.id.localeCompare(b.id)),
		);
	} catch (error) {
		throw forbidden(error);
	}
}

import {formatMoment} from '../format/moment-text.js';
import {textTable} from '../format/text-table.js';
import type {HistoryReader, KnownThing, RecordedBills, ResourceBilled} from '../history/history-types.js';
import type {SpendCategory, SpendResourceKind} from '../model/spend.js';
import {categoryWords} from './spend-text.js';

/** What `podtop history` says of spend: the recorded bills of the window, for the account or for one pod or endpoint. */
export type HistorySpend =
	| {readonly bills: RecordedBills; readonly names: ReadonlyMap<string, string>; readonly resource?: {readonly kind: SpendResourceKind; readonly id: string}}
	/** Why there is nothing to say: none kept for the window, or a history that keeps no bills. */
	| {readonly none: string};

/** The resources a table lists at most (the JSON has all). */
const tableRows = 20;

const dollars = (amount: number) => `$${amount.toFixed(2)}`;
const iso = (at: number) => new Date(at).toISOString();

/** The recorded names of pods and endpoints by id (volumes have none: the fleet lists them nowhere). */
export const billNames = (things: readonly KnownThing[]): ReadonlyMap<string, string> =>
	new Map(things.filter(thing => thing.kind === 'pod' || thing.kind === 'endpoint').map(thing => [`${thing.kind}:${thing.key}`, thing.name]));

const nameOf = (names: ReadonlyMap<string, string>, resource: Pick<ResourceBilled, 'kind' | 'id'>) => names.get(`${resource.kind}:${resource.id}`) ?? '';

/** The lines or the resource the spend is of. */
function subjectOf(spend: Extract<HistorySpend, {bills: unknown}>) {
	const {bills, resource} = spend;
	if (!resource) {
		return {total: bills.account.total, byCategory: bills.account.byCategory, resources: bills.resources, read: true};
	}

	const line = bills.resources.find(each => each.kind === resource.kind && each.id === resource.id);
	return {total: line?.total ?? 0, byCategory: line?.byCategory ?? {}, resources: [], read: bills.kinds.includes(resource.kind)};
}

const categoriesText = (byCategory: Readonly<Partial<Record<SpendCategory, number>>>) =>
	(Object.entries(byCategory) as Array<[SpendCategory, number]>)
		.filter(([, amount]) => amount > 0)
		.sort((a, b) => b[1] - a[1])
		.map(([category, amount]) => `${categoryWords[category]} ${dollars(amount)}`)
		.join(' · ');

/** The spend as text under the series' table: one line of totals by category, and for the account the costliest resources by name. */
export function historySpendText(spend: HistorySpend): string {
	if ('none' in spend) {
		return `\nspend: ${spend.none}\n`;
	}

	const {bills} = spend;
	const subject = subjectOf(spend);
	const span = `${formatMoment(bills.from, {seconds: false})} → ${formatMoment(bills.to, {seconds: false})} (recorded bills, UTC ${bills.size}s)`;
	if (!subject.read) {
		return `\nspend ${span}: none kept for ${spend.resource!.kind}s (podtop spend --by ${spend.resource!.kind} reads them)\n`;
	}

	const categories = categoriesText(subject.byCategory);
	const head = `\nspend ${span}: ${dollars(subject.total)}${categories ? `\n  ${categories}` : ''}\n`;
	if (spend.resource || subject.resources.length === 0) {
		return head;
	}

	const rows = subject.resources
		.slice(0, tableRows)
		.map(resource => [nameOf(spend.names, resource) || (resource.kind === 'volume' ? '–' : '(gone)'), resource.kind, resource.id, dollars(resource.total)]);
	const more = subject.resources.length - rows.length;
	return `${head}${textTable(['NAME', 'KIND', 'ID', 'TOTAL'], rows, new Set([3]))}\n${more > 0 ? `…and ${more} more (--json lists every one)\n` : ''}`;
}

/** The same for `--json`: the buckets' span and size, the totals by category, and for the account each resource's with its name; null with why when none. */
export function historySpendDocument(spend: HistorySpend) {
	if ('none' in spend) {
		return {none: spend.none};
	}

	const {bills} = spend;
	const subject = subjectOf(spend);
	return {
		from: iso(bills.from),
		to: iso(bills.to),
		bucketSize: bills.size,
		read: subject.read,
		total: subject.total,
		byCategory: subject.byCategory,
		...(spend.resource
			? {}
			: {
					kinds: bills.kinds,
					resources: subject.resources.map(resource => ({...resource, name: nameOf(spend.names, resource)})),
				}),
	};
}

/** The spend `podtop history` shows with a thing's series over `from`..`to`: the account's, or the pod's or endpoint's own. */
export async function readHistorySpend(reader: HistoryReader, from: number, to: number, thing: Pick<KnownThing, 'kind' | 'key'>): Promise<HistorySpend> {
	if (!reader.bills) {
		return {
			none:
				reader.kind === 'prometheus'
					? 'Prometheus keeps no bills (podtop_spend_usd is only the day so far): podtop spend reads them from the service'
					: 'this history keeps no bills',
		};
	}

	let bills: RecordedBills | undefined;
	try {
		bills = await reader.bills(from, to);
	} catch (error) {
		return {none: `the bills could not be read (${error instanceof Error ? error.message : String(error)})`};
	}

	if (!bills) {
		return {none: 'no bills kept for this window (podtop spend and the Spend pane keep what they read)'};
	}

	const resource = thing.kind === 'pod' || thing.kind === 'endpoint' ? {kind: thing.kind, id: thing.key} : undefined;
	return {bills, names: billNames(await reader.things()), resource};
}

import {billingComponents, componentsByKind, type BilledKind, type BillingComponent} from './components.js';
import type {BillingWindow} from './billing-window.js';
import type {SimBilling} from './sim-billing.js';

/** Dollars to the millionth: what the answers carry (sums of them, not of the raw amounts, so totals add up). */
const round = (amount: number) => Math.round(amount * 1e6) / 1e6;

const stamp = (time: number) => new Date(time).toISOString().replace('.000Z', 'Z');

const amountKey = (name: string) => `${name}Amount`;

function queryOf(window: BillingWindow) {
	return {startTime: stamp(window.bounds[0]!), endTime: stamp(window.bounds.at(-1)!), bucketSize: window.bucketSize};
}

function range(window: BillingWindow, index: number) {
	return {startTime: stamp(window.bounds[index]!), endTime: stamp(window.bounds[index + 1]!)};
}

/** Amounts named `names` from one row of components, with their total first. */
function amounts(names: readonly string[], row: ArrayLike<number>): Record<string, number> {
	const rounded = names.map((_, index) => round(row[index]!));
	const result: Record<string, number> = {totalAmount: round(rounded.reduce((sum, amount) => sum + amount, 0))};
	for (const [index, name] of names.entries()) {
		result[amountKey(name)] = rounded[index]!;
	}

	return result;
}

function totalsOf(records: ReadonlyArray<Record<string, unknown>>, names: readonly string[]): Record<string, number> {
	const totals: Record<string, number> = {};
	for (const key of ['totalAmount', ...names.map(name => amountKey(name))]) {
		totals[key] = round(records.reduce((sum, record) => sum + (record[key] as number), 0));
	}

	return totals;
}

/** `GET /v2/billing`: one record per bucket, every component of the account's spend. */
export function accountBill(billing: SimBilling, window: BillingWindow) {
	const perResource = billing.ledger.amounts(window.bounds, billing.billedUntil(), billingComponents);
	const records = Array.from({length: window.bounds.length - 1}, (_, index) => {
		const row = new Float64Array(billingComponents.length);
		for (const buckets of perResource.values()) {
			for (const [column, amount] of buckets[index]!.entries()) {
				row[column]! += amount;
			}
		}

		return {...range(window, index), ...amounts(billingComponents, row)};
	});
	return {records, metadata: {query: queryOf(window), recordCount: records.length, totals: totalsOf(records, billingComponents)}};
}

/** `GET /v2/billing/endpoints`: the service's public endpoints the account called; the simulated account calls none. */
export function publicEndpointBill(window: BillingWindow) {
	const records = Array.from({length: window.bounds.length - 1}, (_, index) => ({...range(window, index), totalAmount: 0}));
	return {records, metadata: {query: queryOf(window), recordCount: records.length, totals: {totalAmount: 0}}};
}

const idKeys = {pod: 'podId', serverless: 'serverlessId', volume: 'networkVolumeId', cluster: 'clusterId'} as const;
const countKeys = {pod: 'uniquePodCount', serverless: 'uniqueServerlessCount', volume: 'uniqueNetworkVolumeCount', cluster: 'uniqueClusterCount'} as const;

/** `GET /v2/billing/{pods,serverless,network-volumes,clusters}`: one record per resource per bucket it paid in, `filter` narrowing to one. */
export function resourceBill(billing: SimBilling, window: BillingWindow, kind: BilledKind, filter: string | undefined) {
	const names = Object.keys(componentsByKind[kind]);
	const components = Object.values(componentsByKind[kind]) as BillingComponent[];
	const perResource = billing.ledger.amounts(window.bounds, billing.billedUntil(), components, kind, filter);
	const ids = [...perResource.keys()].sort();
	const records: Array<Record<string, unknown>> = [];
	const seen = new Set<string>();
	for (let index = 0; index < window.bounds.length - 1; index++) {
		for (const id of ids) {
			const bill = amounts(names, perResource.get(id)![index]!);
			if (bill.totalAmount! > 0) {
				records.push({...range(window, index), [idKeys[kind]]: id, ...bill});
				seen.add(id);
			}
		}
	}

	return {
		records,
		metadata: {
			query: {...queryOf(window), [idKeys[kind]]: filter ?? null},
			recordCount: records.length,
			[countKeys[kind]]: seen.size,
			totals: totalsOf(records, names),
		},
	};
}

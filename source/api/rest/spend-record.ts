import {
	spendCategories,
	type AccountSpend,
	type ResourceSpend,
	type ResourceSpendRecord,
	type SpendCategory,
	type SpendResourceKind,
	type SpendWindow,
} from '../../model/spend.js';
import type {components} from './v2-schema.js';

type Schemas = components['schemas'];
type V2Query = Schemas['BillingQuery'];

/** An amount as podtop keeps it: a finite number of dollars (anything else reads 0). */
const dollars = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

const epochMs = (text: string, label: string): number => {
	const ms = Date.parse(text);
	if (!Number.isFinite(ms)) {
		throw new RangeError(`${label}: the answer has a time that is not one`);
	}

	return ms;
};

/** Each category's amount on the aggregate wire: `publicEndpoint` is the service's `endpointAmount`. */
const accountField = (category: SpendCategory) => (category === 'publicEndpoint' ? 'endpointAmount' : `${category}Amount`);

function byCategory(amounts: Record<string, unknown>): Record<SpendCategory, number> {
	return Object.fromEntries(spendCategories.map(category => [category, dollars(amounts[accountField(category)])])) as Record<SpendCategory, number>;
}

function windowOf(query: V2Query, label: string): SpendWindow {
	return {from: epochMs(query.startTime, label), to: epochMs(query.endTime, label), bucketSize: query.bucketSize};
}

export function accountSpend(answer: Schemas['ListBillingResponse']): AccountSpend {
	const label = 'billing';
	return {
		window: windowOf(answer.metadata.query, label),
		buckets: answer.records.map(record => ({
			from: epochMs(record.startTime, label),
			to: epochMs(record.endTime, label),
			total: dollars(record.totalAmount),
			byCategory: byCategory(record),
		})),
		total: dollars(answer.metadata.totals.totalAmount),
		byCategory: byCategory(answer.metadata.totals),
	};
}

/** Per kind: the wire's id field and each category's field on the kind's own route (`gpuAmount` for `podGpu`). */
const resourceWire = {
	pod: {id: 'podId', fields: {podGpu: 'gpuAmount', podCpu: 'cpuAmount', podDisk: 'diskAmount'}},
	endpoint: {id: 'serverlessId', fields: {serverlessGpu: 'gpuAmount', serverlessCpu: 'cpuAmount', serverlessDisk: 'diskAmount', serverlessFee: 'feeAmount'}},
	volume: {id: 'networkVolumeId', fields: {storageStandard: 'standardAmount', storageHighPerformance: 'highPerformanceAmount'}},
	cluster: {id: 'clusterId', fields: {clusterGpu: 'gpuAmount', clusterDisk: 'diskAmount', clusterNetworking: 'networkingAmount'}},
} as const satisfies Record<SpendResourceKind, {id: string; fields: Partial<Record<SpendCategory, string>>}>;

function kindAmounts(kind: SpendResourceKind, amounts: Record<string, unknown>): Partial<Record<SpendCategory, number>> {
	return Object.fromEntries(Object.entries(resourceWire[kind].fields).map(([category, field]) => [category, dollars(amounts[field])]));
}

type V2ResourceAnswer = {
	readonly records: ReadonlyArray<Record<string, unknown> & {startTime: string; endTime: string; totalAmount: number}>;
	readonly metadata: {readonly query: V2Query; readonly totals: Record<string, unknown> & {totalAmount: number}};
};

export function resourceSpend(kind: SpendResourceKind, answer: V2ResourceAnswer): ResourceSpend {
	const label = `billing of ${kind}s`;
	const idField = resourceWire[kind].id;
	const records: ResourceSpendRecord[] = answer.records.map(record => ({
		from: epochMs(record.startTime, label),
		to: epochMs(record.endTime, label),
		resourceId: typeof record[idField] === 'string' ? record[idField] : '',
		total: dollars(record.totalAmount),
		byCategory: kindAmounts(kind, record),
	}));
	return {
		kind,
		window: windowOf(answer.metadata.query, label),
		records,
		total: dollars(answer.metadata.totals.totalAmount),
		byCategory: kindAmounts(kind, answer.metadata.totals),
	};
}

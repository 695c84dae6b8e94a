import {
	spendBucketSizes,
	spendCategories,
	spendResourceKinds,
	type AccountSpend,
	type ResourceSpend,
	type SpendCategory,
	type SpendQuery,
	type SpendResourceKind,
	type SpendWindow,
} from '../model/spend.js';
import {ApiError, type ApiErrorKind} from './errors.js';

/** Whose bills a `spend` request asks for: the account's by category, or one kind of resource's. */
export type SpendSubject = 'account' | SpendResourceKind;

/** A resource's bucket on the wire: [from, to, index in `ids`, total, amounts by category]. */
type WireRecord = [number, number, number, number, Partial<Record<SpendCategory, number>>];

/**
A `spend` answer: the account's spend, one kind's (each id once, the records as short rows: 30 days of 10,000 pods are
about 20 MB, not 40), null where the service publishes no bills (GraphQL), or the service's refusal (a key without
the billing role: 403), for the client to say as its own read would.
*/
export type SpendAnswer =
	| {readonly account: AccountSpend}
	| {
			readonly resources: Omit<ResourceSpend, 'records'> & {readonly ids: readonly string[]; readonly records: readonly WireRecord[]};
	  }
	| {readonly problem: {readonly kind: ApiErrorKind; readonly message: string; readonly status?: number}}
	| null;

export const spendArguments = (subject: SpendSubject, query: SpendQuery): unknown[] => [subject, query];

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isAmount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isMoment = (value: unknown): value is number => isAmount(value) && Number.isSafeInteger(value);

/** The request's arguments checked and rebuilt (nothing else of the line is used), or why not. */
export function readSpendArguments(args: readonly unknown[]): {readonly subject: SpendSubject; readonly query: SpendQuery} | string {
	const [subject, query] = args;
	if (subject !== 'account' && !spendResourceKinds.includes(subject as SpendResourceKind)) {
		return `spend takes account or one of ${spendResourceKinds.join(', ')}`;
	}

	if (!isRecord(query) || !spendBucketSizes.includes(query.bucketSize as SpendQuery['bucketSize'])) {
		return `spend takes {bucketSize: ${spendBucketSizes.join('|')}, from?, to?, lastN?}`;
	}

	for (const field of ['from', 'to', 'lastN'] as const) {
		if (query[field] !== undefined && query[field] !== null && !isMoment(query[field])) {
			return `${field} must be a whole number`;
		}
	}

	const optional = (value: unknown) => (typeof value === 'number' ? value : undefined);
	return {
		subject: subject as SpendSubject,
		query: {bucketSize: query.bucketSize as SpendQuery['bucketSize'], from: optional(query.from), to: optional(query.to), lastN: optional(query.lastN)},
	};
}

/** A read's outcome as the answer carries it. */
export function spendAnswer(spend: AccountSpend | ResourceSpend | undefined): SpendAnswer {
	if (!spend) {
		return null;
	}

	if (!('kind' in spend)) {
		return {account: spend};
	}

	const {records, ...rest} = spend;
	const index = new Map<string, number>();
	const wire = records.map((record): WireRecord => {
		let at = index.get(record.resourceId);
		if (at === undefined) {
			at = index.size;
			index.set(record.resourceId, at);
		}

		return [record.from, record.to, at, record.total, record.byCategory];
	});
	return {resources: {...rest, ids: [...index.keys()], records: wire}};
}

export const spendProblemAnswer = (error: unknown): SpendAnswer =>
	error instanceof ApiError
		? {problem: {kind: error.kind, message: error.message, status: error.status}}
		: {problem: {kind: 'server', message: error instanceof Error ? error.message : String(error)}};

function amountsOf(value: unknown): Partial<Record<SpendCategory, number>> | undefined {
	if (!isRecord(value)) {
		return undefined;
	}

	const entries = Object.entries(value);
	return entries.every(([category, amount]) => spendCategories.includes(category as SpendCategory) && isAmount(amount))
		? Object.fromEntries(entries)
		: undefined;
}

function windowOf(value: unknown): SpendWindow | undefined {
	return isRecord(value) && isMoment(value.from) && isMoment(value.to) && spendBucketSizes.includes(value.bucketSize as SpendWindow['bucketSize'])
		? {from: value.from, to: value.to, bucketSize: value.bucketSize as SpendWindow['bucketSize']}
		: undefined;
}

const apiErrorKinds = new Set<ApiErrorKind>([
	'auth',
	'forbidden',
	'not-found',
	'rate-limited',
	'invalid',
	'server',
	'network',
	'timeout',
	'graphql',
	'aborted',
]);

/**
What the agent answered, checked for shape: the spend, undefined (no bills), or the service's error thrown as the client's
own read would have thrown it. Anything else throws `malformed()`.
*/
export function readSpendAnswer(subject: SpendSubject, value: unknown, malformed: () => Error): AccountSpend | ResourceSpend | undefined {
	if (value === null || value === undefined) {
		return undefined;
	}

	if (!isRecord(value)) {
		throw malformed();
	}

	if (isRecord(value.problem)) {
		const {kind, message, status} = value.problem;
		if (!apiErrorKinds.has(kind as ApiErrorKind) || typeof message !== 'string') {
			throw malformed();
		}

		throw new ApiError(kind as ApiErrorKind, message, {status: typeof status === 'number' ? status : undefined});
	}

	if (subject === 'account' && isRecord(value.account)) {
		const {window: rawWindow, buckets, total, byCategory} = value.account;
		const window = windowOf(rawWindow);
		const sums = amountsOf(byCategory);
		if (!window || !sums || !isAmount(total) || !Array.isArray(buckets)) {
			throw malformed();
		}

		const checked = buckets.map(bucket => {
			const amounts = isRecord(bucket) ? amountsOf(bucket.byCategory) : undefined;
			if (!isRecord(bucket) || !amounts || !isMoment(bucket.from) || !isMoment(bucket.to) || !isAmount(bucket.total)) {
				throw malformed();
			}

			return {from: bucket.from, to: bucket.to, total: bucket.total, byCategory: amounts as Record<SpendCategory, number>};
		});
		return {window, buckets: checked, total, byCategory: sums as Record<SpendCategory, number>};
	}

	if (subject !== 'account' && isRecord(value.resources)) {
		const {kind, window: rawWindow, ids, records, total, byCategory} = value.resources;
		const window = windowOf(rawWindow);
		const sums = amountsOf(byCategory);
		if (
			kind !== subject ||
			!window ||
			!sums ||
			!isAmount(total) ||
			!Array.isArray(ids) ||
			!ids.every(id => typeof id === 'string') ||
			!Array.isArray(records)
		) {
			throw malformed();
		}

		const checked = records.map(record => {
			if (!Array.isArray(record) || record.length !== 5) {
				throw malformed();
			}

			const [from, to, at, amount, rawAmounts] = record as unknown[];
			const amounts = amountsOf(rawAmounts);
			const resourceId = typeof at === 'number' ? ids[at] : undefined;
			if (!isMoment(from) || !isMoment(to) || resourceId === undefined || !isAmount(amount) || !amounts) {
				throw malformed();
			}

			return {from, to, resourceId, total: amount, byCategory: amounts};
		});
		return {kind: subject, window, records: checked, total, byCategory: sums};
	}

	throw malformed();
}

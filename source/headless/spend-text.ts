import {csvRow} from '../format/csv.js';
import {formatMoment} from '../format/moment-text.js';
import {textTable} from '../format/text-table.js';
import type {SpendReport, SpendRow} from '../engine/spend-report.js';
import type {SpendCategory} from '../model/spend.js';

/** What each category is called on screen. */
export const categoryWords: Readonly<Record<SpendCategory, string>> = {
	podGpu: 'POD GPU',
	podCpu: 'POD CPU',
	podDisk: 'POD DISK',
	serverlessGpu: 'SLS GPU',
	serverlessCpu: 'SLS CPU',
	serverlessDisk: 'SLS DISK',
	serverlessFee: 'SLS FEE',
	storageStandard: 'STORAGE',
	storageHighPerformance: 'STORAGE HP',
	publicEndpoint: 'PUBLIC EP',
	clusterGpu: 'CLUSTER GPU',
	clusterDisk: 'CLUSTER DISK',
	clusterNetworking: 'CLUSTER NET',
};

const dollars = (amount: number) => `$${amount.toFixed(2)}`;
const iso = (at: number) => new Date(at).toISOString();

/** The report's categories in their order; in a table, only those with any spend. */
const categoriesOf = (report: SpendReport, spentOnly: boolean) =>
	(Object.keys(report.byCategory) as SpendCategory[]).filter(category => !spentOnly || (report.byCategory[category] ?? 0) > 0);

/** One line saying the window, its buckets and the total. */
function heading(report: SpendReport): string {
	const {from, to, bucketSize} = report.window;
	return `spend ${formatMoment(from, {seconds: false})} → ${formatMoment(to, {seconds: false})} (UTC ${bucketSize}s, local time): ${dollars(report.total)}`;
}

/**
A report as people read it: by category, a row per bucket with the categories that cost anything;
by resource, a row per pod, endpoint or volume with its total over the window, the costliest first.
Every cell passes the sanitiser (names are the service's).
*/
export function spendTable(report: SpendReport): string {
	const categories = categoriesOf(report, true);
	const right = new Set(Array.from({length: categories.length + 3}, (_, index) => index).filter(index => index > (report.split === 'category' ? 0 : 1)));
	if (report.split === 'category') {
		const rows = report.rows.map(row => [
			formatMoment(row.from, {seconds: false}),
			dollars(row.total),
			...categories.map(category => dollars(row.byCategory[category] ?? 0)),
		]);
		rows.push(['total', dollars(report.total), ...categories.map(category => dollars(report.byCategory[category] ?? 0))]);
		return `${heading(report)}\n${textTable(['BUCKET', 'TOTAL', ...categories.map(category => categoryWords[category])], rows, right)}\n`;
	}

	const perResource = new Map<string, Partial<Record<SpendCategory, number>>>();
	for (const row of report.rows) {
		const sums = perResource.get(row.id!) ?? {};
		for (const category of categories) {
			sums[category] = (sums[category] ?? 0) + (row.byCategory[category] ?? 0);
		}

		perResource.set(row.id!, sums);
	}

	const rows = report.resources.map(resource => [
		// Volumes have no names in the fleet's lists; a pod or endpoint without one is gone.
		resource.name || (report.split === 'volume' ? '–' : '(gone)'),
		resource.id,
		dollars(resource.total),
		...categories.map(category => dollars(perResource.get(resource.id)?.[category] ?? 0)),
	]);
	rows.push(['total', '', dollars(report.total), ...categories.map(category => dollars(report.byCategory[category] ?? 0))]);
	return `${heading(report)}\n${textTable(['NAME', 'ID', 'TOTAL', ...categories.map(category => categoryWords[category])], rows, right)}\n`;
}

const rowDocument = (row: SpendRow) => ({
	from: iso(row.from),
	to: iso(row.to),
	...(row.id === undefined ? {} : {id: row.id, name: row.name ?? ''}),
	total: row.total,
	byCategory: row.byCategory,
});

/** The same for jq (print with inertJson): the window, the totals, each bucket (or resource's bucket), and by resource each one's total. */
export function spendDocument(report: SpendReport) {
	return {
		window: {from: iso(report.window.from), to: iso(report.window.to), bucketSize: report.window.bucketSize},
		by: report.split,
		total: report.total,
		byCategory: report.byCategory,
		...(report.split === 'category'
			? {buckets: report.rows.map(row => rowDocument(row))}
			: {resources: report.resources, records: report.rows.map(row => rowDocument(row))}),
	};
}

/** A row per bucket (or resource's bucket): from, to, [id, name,] total and every category of the split, in dollars. */
export function spendCsv(report: SpendReport): string {
	const categories = categoriesOf(report, false);
	const byResource = report.split !== 'category';
	const header = ['from', 'to', ...(byResource ? ['id', 'name'] : []), 'total', ...categories];
	const rows = report.rows.map(row =>
		csvRow([iso(row.from), iso(row.to), ...(byResource ? [row.id, row.name] : []), row.total, ...categories.map(category => row.byCategory[category] ?? 0)]),
	);
	return `${[csvRow(header), ...rows].join('\n')}\n`;
}

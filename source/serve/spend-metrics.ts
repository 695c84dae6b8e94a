import {Gauge, type Registry} from 'prom-client';
import {sanitizeLine} from '../format/sanitize.js';
import type {SpendReport} from '../engine/spend-report.js';
import type {SpendCategory, SpendQuery, SpendSplit} from '../model/spend.js';

const resourceKinds = ['pod', 'endpoint', 'volume'] as const;
type ResourceKind = (typeof resourceKinds)[number];

/** What the account spent today (the UTC day so far, as the service billed it): by category, and per resource. */
export type TodaySpend = {
	readonly day: number;
	readonly byCategory: Readonly<Partial<Record<SpendCategory, number>>>;
	readonly resources: ReadonlyArray<{readonly kind: ResourceKind; readonly id: string; readonly name: string; readonly total: number}>;
};

/** Resources exported per kind, the costliest; the rest are one `other` series, so 10,000 pods are 51 series, not 10,000. */
export const spendResourcesPerKind = 50;

const label = (text: string) => sanitizeLine(text).slice(0, 128);

/**
`podtop_spend_usd{category}`: the account's spend today by the service's categories (their sum is the day's bill so
far); `podtop_resource_spend_usd{kind, resource_id, resource}`: each pod's, endpoint's and network volume's. Gauges,
not counters: the day's amounts start again at 0 at midnight UTC, and the service may revise a bucket.
*/
export function registerSpendMetrics(registry: Registry, today: () => TodaySpend | undefined): void {
	// eslint-disable-next-line no-new
	new Gauge({
		name: 'podtop_spend_usd',
		help: "The account's spend today (UTC day so far) by category, in US dollars, from the service's bills (every 5 minutes)",
		labelNames: ['category'],
		registers: [registry],
		collect() {
			this.reset();
			for (const [category, amount] of Object.entries(today()?.byCategory ?? {})) {
				if (typeof amount === 'number' && Number.isFinite(amount)) {
					this.set({category}, amount);
				}
			}
		},
	});
	// eslint-disable-next-line no-new
	new Gauge({
		name: 'podtop_resource_spend_usd',
		help: `Each pod's, endpoint's and network volume's spend today (UTC day so far), in US dollars; the ${spendResourcesPerKind} costliest per kind, the rest as resource_id="other"`,
		labelNames: ['kind', 'resource_id', 'resource'],
		registers: [registry],
		collect() {
			this.reset();
			for (const kind of resourceKinds) {
				const ofKind = (today()?.resources ?? []).filter(resource => resource.kind === kind).sort((a, b) => b.total - a.total || a.id.localeCompare(b.id));
				for (const resource of ofKind.slice(0, spendResourcesPerKind)) {
					this.set({kind, resource_id: label(resource.id), resource: label(resource.name)}, resource.total);
				}

				if (ofKind.length > spendResourcesPerKind) {
					this.set(
						{kind, resource_id: 'other', resource: 'other'},
						ofKind.slice(spendResourcesPerKind).reduce((sum, resource) => sum + resource.total, 0),
					);
				}
			}
		},
	});
}

const dayMs = 86_400_000;

/**
Today's bills read every 5 minutes (the service bills in 5-minute runs): one read per billing route per run, through the
engine (and so the history file's bills). A failed read (a key without billing) leaves the last one, or none.
*/
export function createSpendFeed(
	spend: (query: SpendQuery, split: SpendSplit) => Promise<SpendReport>,
	{everyMs = 300_000, now = Date.now, start = true}: {readonly everyMs?: number; readonly now?: () => number; readonly start?: boolean} = {},
): {readonly today: () => TodaySpend | undefined; readonly read: () => Promise<void>; readonly close: () => void} {
	let latest: TodaySpend | undefined;
	let timer: NodeJS.Timeout | undefined;
	let closed = false;
	const read = async () => {
		const day = Math.floor(now() / dayMs) * dayMs;
		const query: SpendQuery = {bucketSize: 'day', from: day, to: day + dayMs};
		try {
			const [account, ...reports] = await Promise.all([spend(query, 'category'), ...resourceKinds.map(async kind => spend(query, kind))]);
			latest = {
				day,
				byCategory: account.byCategory,
				resources: reports.flatMap((report, index) => report.resources.map(resource => ({...resource, kind: resourceKinds[index]!}))),
			};
		} catch {
			// Said by the Spend pane and `podtop spend`; the exporter keeps what it had (today's only).
			if (latest && latest.day !== day) {
				latest = undefined;
			}
		}
	};

	const loop = async () => {
		await read();
		if (!closed) {
			timer = setTimeout(() => {
				void loop();
			}, everyMs);
			timer.unref();
		}
	};

	if (start) {
		void loop();
	}

	return {
		today: () => latest,
		read,
		close() {
			closed = true;
			clearTimeout(timer);
		},
	};
}

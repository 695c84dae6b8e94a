/** The cost components of the aggregate bill (`/v2/billing`), without their `Amount` suffix. */
export const billingComponents = [
	'podGpu',
	'podCpu',
	'podDisk',
	'serverlessGpu',
	'serverlessCpu',
	'serverlessDisk',
	'serverlessFee',
	'storageStandard',
	'storageHighPerformance',
	'endpoint',
	'clusterGpu',
	'clusterDisk',
	'clusterNetworking',
] as const;

export type BillingComponent = (typeof billingComponents)[number];

/** What a resource pays per hour, by component; absent components pay nothing. */
export type Rates = Readonly<Partial<Record<BillingComponent, number>>>;

/** What a resource kind's own route calls each component (`/billing/pods` says `gpuAmount` for `podGpuAmount`). */
export const componentsByKind = {
	pod: {gpu: 'podGpu', cpu: 'podCpu', disk: 'podDisk'},
	serverless: {gpu: 'serverlessGpu', cpu: 'serverlessCpu', disk: 'serverlessDisk', fee: 'serverlessFee'},
	volume: {standard: 'storageStandard', highPerformance: 'storageHighPerformance'},
	cluster: {gpu: 'clusterGpu', disk: 'clusterDisk', networking: 'clusterNetworking'},
} as const satisfies Record<string, Record<string, BillingComponent>>;

export type BilledKind = keyof typeof componentsByKind;

export const sameRates = (a: Rates, b: Rates) => billingComponents.every(component => (a[component] ?? 0) === (b[component] ?? 0));

export const isFree = (rates: Rates) => billingComponents.every(component => !rates[component]);

/** Hours in a billing month: the service prices storage per GB-month. */
const hoursPerMonth = 730;

/**
What the simulated service charges, $/h unless named otherwise. Pods pay their `costPerHr` while running
(their GPUs, or a CPU pod's vCPU and memory); disks are priced per GB-month: a running pod's container
disk and volume at $0.10, a stopped pod's volume at $0.20 (it still bills); network volumes at $0.07
standard, $0.14 high-performance. Serverless workers pay for their GPUs at the pool's flex price from the
moment they hold a GPU until they go (idle time included), plus a platform fee of 10 % of that.
*/
export const billingPrices = {
	runningDiskPerGbHour: 0.1 / hoursPerMonth,
	stoppedVolumePerGbHour: 0.2 / hoursPerMonth,
	networkVolumeStandardPerGbHour: 0.07 / hoursPerMonth,
	networkVolumeHighPerformancePerGbHour: 0.14 / hoursPerMonth,
	serverlessFeeShare: 0.1,
} as const;

/** A serverless pool's flex price per GPU, $/h (the service's per-second price × 3,600). */
export const serverlessPoolPrices: Readonly<Record<string, number>> = {
	AMPERE_16: 0.58,
	AMPERE_24: 0.68,
	ADA_24: 1.1,
	AMPERE_48: 1.22,
	ADA_48_PRO: 1.9,
	AMPERE_80: 2.72,
	ADA_80_PRO: 4.18,
};

/** The size a network volume the fleet names is billed at (the simulator does not model volumes yet). */
export const networkVolumeGb = 200;

/** How often the service bills: what is visible grows in runs of this length. */
export const billingRunMs = 5 * 60_000;

/** How far before the simulator's first moment its bills reach: what the fleet it starts with did before then. */
export const billedHistoryMs = 30 * 86_400_000;

/** How often each kind of data is refreshed (ms). Hidden panes poll slower; jobs by state. */
export type Cadence = {
	readonly endpointsMs: number;
	readonly healthMs: number;
	readonly healthHiddenMs: number;
	/** Per endpoint off screen, at most this many health requests a second in all (the rest are spread out)… */
	readonly healthOffScreenPerSecond: number;
	/** …and never staler than this (nor is a hidden pane's list: the header promises it). */
	readonly healthStalestMs: number;
	readonly podsMs: number;
	/** Shown, the whole pod list is fetched every `podsMs`, or this much a pod when longer (its rows on screen keep `podsMs`). */
	readonly podListMsPerPod: number;
	readonly podsHiddenMs: number;
	readonly gpusMs: number;
	readonly gpusHiddenMs: number;
	readonly jobsTickMs: number;
	readonly jobInProgressMs: number;
	readonly jobInQueueMs: number;
	readonly jobUnknownMs: number;
	readonly streamMs: number;
	/** A job this client submitted that the service answers 404 for this long is still starting (not yet known to /stream or /status), not gone. */
	readonly jobStartGraceMs: number;
	readonly budgetPublishMs: number;
	/** The account's balance (it moves as the service bills, every 5 minutes). */
	readonly balanceMs?: number;
	/** The workers of the endpoint whose details are open (REST v2)… */
	readonly workersOpenMs: number;
	/** …of every other endpoint whose jobs wait… */
	readonly workersQueuedMs: number;
	/** …and its releases, while its details are open. */
	readonly releasesMs: number;
};

export const defaultCadence: Cadence = {
	endpointsMs: 60_000,
	healthMs: 5000,
	healthHiddenMs: 15_000,
	healthOffScreenPerSecond: 10,
	healthStalestMs: 60_000,
	podsMs: 5000,
	podListMsPerPod: 10,
	podsHiddenMs: 20_000,
	gpusMs: 30_000,
	gpusHiddenMs: 60_000,
	jobsTickMs: 500,
	jobInProgressMs: 1000,
	jobInQueueMs: 5000,
	jobUnknownMs: 2000,
	streamMs: 500,
	jobStartGraceMs: 30_000,
	budgetPublishMs: 1000,
	workersOpenMs: 5000,
	workersQueuedMs: 30_000,
	releasesMs: 60_000,
};

/**
How often a dashboard on its own reads the whole pod list while the Pods pane is shown: `podListMsPerPod` a pod, from
`podsMs` to `healthStalestMs` (5 s at 500 pods, 20 s at 2,000, 60 s at 10,000).
*/
export const shownPodListMs = (cadence: Cadence, podCount: number): number =>
	Math.min(cadence.healthStalestMs, Math.max(cadence.podsMs, podCount * cadence.podListMsPerPod));

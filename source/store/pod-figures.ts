import type {PodRecord} from '../model/pod.js';
import {formatDollarsPerHour, formatPrice} from '../format/numbers.js';
import {sanitizeLine} from '../format/sanitize.js';
import type {PodState} from './types.js';

/** What a pod's cost is made of (`podCost`): its record, or a glance at it. */
export type PodCostFields = Pick<PodRecord, 'desiredStatus' | 'costPerHr' | 'volumeInGb'>;

/**
What the Pods pane's row and the cost totals read of a pod, in plain figures: a past pod tells them
from its sample without making its record (a time cursor's step reads 10,000 pods; past-pod.ts).
*/
export type PodGlance = PodCostFields & {
	readonly id: string;
	readonly name: string | null | undefined;
	readonly gpuCount: number | null | undefined;
	readonly gpuDisplayName: string | null | undefined;
	/** The pod has a runtime (it is up). */
	readonly up: boolean;
	/** How many GPUs its runtime lists. */
	readonly gpus: number;
	/** Mean GPU utilisation, rounded (`meanGpuUtil`); undefined without GPUs in its runtime. */
	readonly util: number | undefined;
	/** Mean GPU memory use; undefined without GPUs in its runtime. */
	readonly vram: number | undefined;
	readonly cpu: number | undefined;
	readonly memory: number | undefined;
	readonly uptimeInSeconds: number | undefined;
};

/** A pod state that tells its glance and its cost's fields itself (a past pod). */
type Glancing = {readonly glance?: () => PodGlance; readonly costFields?: () => PodCostFields};

/** The glance at a pod's record. */
export function glanceOf(record: PodRecord): PodGlance {
	const runtime = record.runtime ?? undefined;
	const gpus = runtime?.gpus ?? [];
	return {
		id: record.id,
		name: record.name,
		desiredStatus: record.desiredStatus,
		costPerHr: record.costPerHr,
		volumeInGb: record.volumeInGb,
		gpuCount: record.gpuCount,
		gpuDisplayName: record.machine?.gpuDisplayName,
		up: runtime !== undefined,
		gpus: gpus.length,
		util: meanGpuUtil(record),
		vram: gpus.length > 0 ? gpus.reduce((sum, item) => sum + (item.memoryUtilPercent ?? 0), 0) / gpus.length : undefined,
		cpu: runtime?.container?.cpuPercent ?? undefined,
		memory: runtime?.container?.memoryPercent ?? undefined,
		uptimeInSeconds: runtime?.uptimeInSeconds ?? undefined,
	};
}

/** A pod state's glance: its own when it tells one, else its record's. */
export const podGlance = (pod: PodState): PodGlance => (pod as PodState & Glancing).glance?.() ?? glanceOf(pod.record);

/** What a pod state's cost is made of: its own fields when it tells them (no record made), else its record. */
export const podCostFields = (pod: PodState): PodCostFields => (pod as PodState & Glancing).costFields?.() ?? pod.record;

/** Mean GPU utilisation of a running pod; undefined when it has no runtime. */
export function meanGpuUtil(record: PodRecord): number | undefined {
	const gpus = record.runtime?.gpus ?? [];
	if (gpus.length === 0) {
		return undefined;
	}

	return Math.round(gpus.reduce((sum, gpu) => sum + (gpu.gpuUtilPercent ?? 0), 0) / gpus.length);
}

/**
RunPod's published price of a stopped pod's volume disk, in dollars per GB per month (docs.runpod.io,
Pods › Storage: $0.10 while the pod runs, $0.20 while it is stopped). The service sends no field for it.
*/
export const stoppedVolumeDollarsPerGbMonth = 0.2;

/** Hours in the month storage is priced by (365 × 24 / 12). */
export const hoursPerMonth = 730;

/** What a pod costs: now, and while it runs. */
export type PodCost = {
	/** Dollars per hour the pod costs now; undefined when podtop cannot know it. */
	readonly now: number | undefined;
	/** `now` is podtop's estimate from the published storage price, not a figure the service sent. */
	readonly estimated: boolean;
	/** Whether the pod is asked to run, and so pays its running price. */
	readonly running: boolean;
	/** Dollars per hour while it runs: the service's `costPerHr`, which a stopped pod keeps. */
	readonly runningPerHr: number | undefined;
	/** Its volume disk in GB, when known: what a stopped pod pays for. */
	readonly volumeInGb: number | undefined;
};

/**
What a pod costs now, the one rule every figure of podtop uses (rows, details, title, snapshot,
exporter, alerts). Asked to run (STARTING too): its `costPerHr`. Stopped (EXITED): its volume disk at
the published stopped rate, an estimate; a 0-GB volume costs $0; an unknown volume size is unknown,
never the running price. Terminated: nothing. Any other status: unknown.
*/
export function podCost(record: PodCostFields): PodCost {
	const running = record.desiredStatus === 'RUNNING';
	return {
		now: costNow(record),
		estimated: isEstimatedCost(record),
		running,
		runningPerHr: record.costPerHr ?? undefined,
		volumeInGb: record.volumeInGb ?? undefined,
	};
}

/** A stopped pod's volume size when it tells one podtop can price. */
function priceableVolume(record: PodCostFields): number | undefined {
	const volumeInGb = record.volumeInGb ?? undefined;
	return volumeInGb !== undefined && Number.isFinite(volumeInGb) && volumeInGb >= 0 ? volumeInGb : undefined;
}

/** `podCost(record).now`, with no object made (the totals sum it for every pod at each poll). */
function costNow(record: PodCostFields): number | undefined {
	switch (record.desiredStatus) {
		case 'RUNNING': {
			return record.costPerHr ?? undefined;
		}

		case 'EXITED': {
			const volumeInGb = priceableVolume(record);
			return volumeInGb === undefined || volumeInGb === 0 ? volumeInGb : (volumeInGb * stoppedVolumeDollarsPerGbMonth) / hoursPerMonth;
		}

		case 'TERMINATED': {
			return 0;
		}

		default: {
			return undefined;
		}
	}
}

/** `podCost(record).estimated`: a stopped pod's volume priced at the published rate. */
function isEstimatedCost(record: PodCostFields): boolean {
	return record.desiredStatus === 'EXITED' && (priceableVolume(record) ?? 0) > 0;
}

/** A pod's cost now for people: `$3.99/h`, an estimate as `~$0.027/h`, unknown as `–`. */
export function formatCostNow(cost: Pick<PodCost, 'now' | 'estimated'>): string {
	const text = formatDollarsPerHour(cost.now);
	return cost.estimated && cost.now !== undefined ? `~${text}` : text;
}

/** A sum of pods' costs now: of how many pods, and how many of them it could not include (cost unknown). */
export type CostSum = {readonly perHr: number; readonly pods: number; readonly unknown: number; readonly estimated: boolean};

/** What the account's pods cost now, the running ones and the rest (stopped: their volumes). */
export type PodCostTotals = {readonly running: CostSum; readonly stopped: CostSum};

/** Sums the pods' costs now, apart for the running pods and the others. */
export function podCostTotals(records: readonly PodCostFields[]): PodCostTotals {
	const running = {perHr: 0, pods: 0, unknown: 0, estimated: false};
	const stopped = {perHr: 0, pods: 0, unknown: 0, estimated: false};
	// No cost object a pod: 2,000 pods' totals are summed at each poll of the rows on screen.
	for (const record of records) {
		const sum = record.desiredStatus === 'RUNNING' ? running : stopped;
		sum.pods++;
		const now = costNow(record);
		if (now === undefined) {
			sum.unknown++;
		} else {
			sum.perHr += now;
			sum.estimated ||= isEstimatedCost(record);
		}
	}

	return {running, stopped};
}

const sumText = (sum: CostSum) => `${formatCostNow({now: sum.perHr, estimated: sum.estimated})}${sum.unknown > 0 ? ` (${sum.unknown} unknown)` : ''}`;

/** The totals for a title: `running $23.92/h · stopped ~$0.11/h`, the stopped part only when there are stopped pods. */
export function formatCostTotals({running, stopped}: PodCostTotals): string {
	return `running ${sumText(running)}${stopped.pods > 0 ? ` · stopped ${sumText(stopped)}` : ''}`;
}

/**
A pod's cost for its details and the write reports, the running price labelled:
`$3.99/h now (running)`, or `~$0.055/h now (stopped: volume 200 GB at $0.20/GB/month, estimated) · $3.99/h running`.
*/
export function describeCost(record: PodRecord): string {
	const cost = podCost(record);
	const now = `${formatCostNow(cost)} now`;
	if (cost.running) {
		return `${now} (running)`;
	}

	const running = `${formatDollarsPerHour(cost.runningPerHr)} running`;
	if (record.desiredStatus === 'TERMINATED') {
		return `${now} (terminated)`;
	}

	if (record.desiredStatus !== 'EXITED') {
		return `${now} (status ${sanitizeLine(record.desiredStatus ?? 'unknown')}) · ${running}`;
	}

	const volume =
		cost.volumeInGb === undefined
			? 'volume size unknown'
			: cost.volumeInGb === 0
				? 'no volume'
				: `volume ${cost.volumeInGb} GB at ${formatPrice(stoppedVolumeDollarsPerGbMonth)}/GB/month, estimated`;
	return `${now} (stopped: ${volume}) · ${running}`;
}

import {layeredNoise, seedOf} from '../noise.js';
import {findGpu, gpuCatalogue, type GpuModel} from './gpu-catalogue.js';

export type StockStatus = 'High' | 'Medium' | 'Low' | 'None';
export type CloudChoice = 'SECURE' | 'COMMUNITY' | 'ALL';

/** Supply swings over a few simulated minutes, so a watcher sees stock change within a minute. */
const supplyPeriodMs = 150_000;
const spotPeriodMs = 240_000;

export function stockStatusOf(free: number): StockStatus {
	if (free <= 0) {
		return 'None';
	}

	if (free < 8) {
		return 'Low';
	}

	return free < 24 ? 'Medium' : 'High';
}

const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
The simulated GPU market: free GPUs per type drift with time (other tenants come and go), the
simulator's own pods hold some, and the spot price moves around half the on-demand price.
*/
export class Market {
	readonly #seed: number;
	readonly #now: () => number;
	readonly #held = new Map<string, number>();

	/** `now` is simulated time since start, so a seed replays the same market. */
	constructor(seed: number, now: () => number) {
		this.#seed = seed;
		this.#now = now;
	}

	/** GPUs of this type free right now for anyone (others' rentals drift, ours are subtracted). */
	free(model: GpuModel): number {
		const noise = layeredNoise(this.#seed ^ seedOf(model.id), this.#now(), supplyPeriodMs);
		const fraction = Math.max(0, noise * 1.4 - 0.35) * 0.3;
		return Math.max(0, Math.round(model.supply * fraction) - (this.#held.get(model.id) ?? 0));
	}

	/** Most GPUs one host can give a single pod. */
	maxUnreserved(model: GpuModel): number {
		return Math.min(model.maxGpuCount, this.free(model));
	}

	/** Current spot price per GPU, the minimum a bid must reach. Undefined where no cloud offers the type. */
	spotPrice(model: GpuModel, cloud: CloudChoice = 'ALL'): number | undefined {
		const base = this.onDemandPrice(model, cloud);
		if (base === undefined) {
			return undefined;
		}

		const noise = layeredNoise((this.#seed + 31) ^ seedOf(model.id), this.#now(), spotPeriodMs);
		return round(base * (0.35 + 0.4 * noise));
	}

	onDemandPrice(model: GpuModel, cloud: CloudChoice = 'ALL'): number | undefined {
		if (cloud === 'SECURE') {
			return model.securePrice;
		}

		if (cloud === 'COMMUNITY') {
			return model.communityPrice;
		}

		const prices = [model.securePrice, model.communityPrice].filter((price): price is number => price !== undefined);
		return prices.length > 0 ? Math.min(...prices) : undefined;
	}

	/** Takes `count` GPUs for one of our pods; false when there are not enough free. */
	hold(gpuTypeId: string, count: number): boolean {
		const model = findGpu(gpuTypeId);
		if (!model || this.free(model) < count) {
			return false;
		}

		this.#held.set(gpuTypeId, (this.#held.get(gpuTypeId) ?? 0) + count);
		return true;
	}

	release(gpuTypeId: string, count: number): void {
		this.#held.set(gpuTypeId, Math.max(0, (this.#held.get(gpuTypeId) ?? 0) - count));
	}

	models(): readonly GpuModel[] {
		return gpuCatalogue;
	}
}

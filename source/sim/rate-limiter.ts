import {SlidingWindow} from '../lib/sliding-window.js';
import {rateWindowMs, type RateLimit} from './rate-table.js';

export type RateLimiterOptions = {
	/** Multiplies every limit, so tests can reach them cheaply (e.g. 0.01). */
	readonly scale: number;
	/** Requests per window each running worker adds: effective limit = max(base, running × allowance). */
	readonly workerAllowance: number;
};

export type Admission = {readonly ok: true; readonly release: () => void} | {readonly ok: false; readonly retryAfterSeconds: number; readonly reason: string};

type Bucket = {readonly window: SlidingWindow; inFlight: number};

const scaled = (value: number, scale: number) => Math.max(1, Math.floor(value * scale));

/** Sliding 10-second windows plus concurrency caps, keyed by (API key, endpoint, operation group). Real time. */
export class RateLimiter {
	readonly #options: RateLimiterOptions;
	readonly #buckets = new Map<string, Bucket>();

	constructor(options: RateLimiterOptions) {
		this.#options = options;
	}

	/** The per-window limit in force for a base limit with this many running workers. */
	effectivePerWindow(base: number, runningWorkers: number): number {
		const {scale, workerAllowance} = this.#options;
		return Math.max(scaled(base, scale), Math.floor(runningWorkers * workerAllowance * scale));
	}

	effectiveConcurrent(base: number): number {
		return scaled(base, this.#options.scale);
	}

	admit(key: string, limit: RateLimit, runningWorkers: number, now = performance.now()): Admission {
		let bucket = this.#buckets.get(key);
		if (!bucket) {
			bucket = {window: new SlidingWindow(rateWindowMs), inFlight: 0};
			this.#buckets.set(key, bucket);
		}

		if (limit.concurrent !== undefined && bucket.inFlight >= this.effectiveConcurrent(limit.concurrent)) {
			return {ok: false, retryAfterSeconds: 1, reason: 'Too many concurrent requests'};
		}

		if (limit.perWindow !== undefined) {
			const allowed = this.effectivePerWindow(limit.perWindow, runningWorkers);
			if (bucket.window.count(now) >= allowed) {
				return {
					ok: false,
					retryAfterSeconds: Math.max(1, Math.ceil(bucket.window.msUntilSlotFrees(now) / 1000)),
					reason: `Rate limit exceeded: ${allowed} requests per ${rateWindowMs / 1000} seconds`,
				};
			}

			bucket.window.add(now);
		}

		bucket.inFlight++;
		let released = false;
		const admitted = bucket;
		return {
			ok: true,
			release() {
				if (!released) {
					released = true;
					admitted.inFlight--;
				}
			},
		};
	}
}

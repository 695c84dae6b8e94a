import {SlidingWindow} from '../lib/sliding-window.js';
import {rateWindowMs} from './rate-table.js';

export type OperationStats = {
	requests: number;
	rateLimited: number;
	/** Most requests seen in any trailing 10-second window. */
	peakWindow: number;
	peakConcurrency: number;
};

type Counter = OperationStats & {inFlight: number; readonly window: SlidingWindow};

/**
What `/__sim/stats` reports: per endpoint (or `graphql`) and operation, plus `group:status` for the
operations that share one limit. Lets client tests prove they keep within budget.
*/
export class SimStats {
	#counters = new Map<string, Map<string, Counter>>();

	/**
	Records a request's arrival; call the returned function when its response ends. `group` is the
	rate-limit group when it differs from the operation (`/status-sync` counts toward `status` too).
	*/
	begin(scope: string, operation: string, now = performance.now(), group?: string): () => void {
		const endGroup = group && group !== operation ? this.begin(scope, `group:${group}`, now) : undefined;
		const counter = this.#counter(scope, operation);
		counter.requests++;
		counter.peakWindow = Math.max(counter.peakWindow, counter.window.add(now));
		counter.inFlight++;
		counter.peakConcurrency = Math.max(counter.peakConcurrency, counter.inFlight);
		let ended = false;
		return () => {
			if (!ended) {
				ended = true;
				counter.inFlight--;
				endGroup?.();
			}
		};
	}

	rateLimited(scope: string, operation: string, group?: string): void {
		this.#counter(scope, operation).rateLimited++;
		if (group && group !== operation) {
			this.#counter(scope, `group:${group}`).rateLimited++;
		}
	}

	snapshot(): Record<string, Record<string, OperationStats>> {
		const result: Record<string, Record<string, OperationStats>> = {};
		for (const [scope, operations] of this.#counters) {
			const entry: Record<string, OperationStats> = {};
			for (const [operation, {requests, rateLimited, peakWindow, peakConcurrency}] of operations) {
				entry[operation] = {requests, rateLimited, peakWindow, peakConcurrency};
			}

			result[scope] = entry;
		}

		return result;
	}

	reset(): void {
		this.#counters = new Map();
	}

	#counter(scope: string, operation: string): Counter {
		let operations = this.#counters.get(scope);
		if (!operations) {
			operations = new Map();
			this.#counters.set(scope, operations);
		}

		let counter = operations.get(operation);
		if (!counter) {
			counter = {requests: 0, rateLimited: 0, peakWindow: 0, peakConcurrency: 0, inFlight: 0, window: new SlidingWindow(rateWindowMs)};
			operations.set(operation, counter);
		}

		return counter;
	}
}

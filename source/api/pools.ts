import {Pool} from 'undici';

export type Timeouts = {
	/** Connecting, TLS included. */
	readonly connectMs: number;
	/** Waiting for response headers (long-polls add their wait on top). */
	readonly headersMs: number;
	/** Between body chunks. */
	readonly bodyMs: number;
	/** Idle connections are kept this long: longer than any poll interval, so polls reuse them. */
	readonly keepAliveMs: number;
};

export const defaultTimeouts: Timeouts = {connectMs: 5000, headersMs: 15_000, bodyMs: 15_000, keepAliveMs: 65_000};

/** One undici pool per origin, shared by the job API and GraphQL clients when they share an origin. */
export class Pools {
	readonly #pools = new Map<string, Pool>();
	readonly #timeouts: Timeouts;

	constructor(timeouts: Timeouts = defaultTimeouts) {
		this.#timeouts = timeouts;
	}

	get timeouts(): Timeouts {
		return this.#timeouts;
	}

	for(url: string | URL): Pool {
		const {origin} = new URL(url);
		let pool = this.#pools.get(origin);
		if (!pool) {
			const {connectMs, headersMs, bodyMs, keepAliveMs} = this.#timeouts;
			pool = new Pool(origin, {
				connections: 16,
				pipelining: 1,
				keepAliveTimeout: keepAliveMs,
				keepAliveMaxTimeout: keepAliveMs * 2,
				connect: {timeout: connectMs},
				headersTimeout: headersMs,
				bodyTimeout: bodyMs,
			});
			this.#pools.set(origin, pool);
		}

		return pool;
	}

	async close(): Promise<void> {
		const pools = [...this.#pools.values()];
		this.#pools.clear();
		await Promise.all(pools.map(async pool => pool.destroy()));
	}
}

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

/** Streams one origin may hold open at once (every worker of a few merged endpoints); a stream holds its connection. */
const maxStreams = 128;

/**
One undici pool per origin, shared by the job API and GraphQL clients when they share an origin; and
one more per origin for long-lived streams (server-sent logs), so that followed streams never take
the connections that polls and writes need.
*/
export class Pools {
	readonly #pools = new Map<string, Pool>();
	readonly #streams = new Map<string, Pool>();
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

	/**
	The origin's pool for streams that stay open: no time limit between body chunks (whoever reads a
	stream watches it for stalls, keep-alives included); connecting and the headers keep theirs.
	*/
	streams(url: string | URL): Pool {
		const {origin} = new URL(url);
		let pool = this.#streams.get(origin);
		if (!pool) {
			const {connectMs, headersMs} = this.#timeouts;
			pool = new Pool(origin, {connections: maxStreams, pipelining: 1, connect: {timeout: connectMs}, headersTimeout: headersMs, bodyTimeout: 0});
			this.#streams.set(origin, pool);
		}

		return pool;
	}

	async close(): Promise<void> {
		const pools = [...this.#pools.values(), ...this.#streams.values()];
		this.#pools.clear();
		this.#streams.clear();
		await Promise.all(pools.map(async pool => pool.destroy()));
	}
}

/** A GPU type's list price per GPU-hour, per cloud. */
export type ListPrice = {readonly secure?: number; readonly community?: number};

type CatalogEntry = {readonly id: string; readonly name: string; readonly price?: ListPrice};

/** How long a catalog read stands for the GPU types' names, when a pod names a type it does not know. */
const refreshAfterMs = 10 * 60_000;

/**
The GPU types' display names (`NVIDIA GeForce RTX 4090` → `RTX 4090`), which v2's pods do not carry: read from
the catalog once, learnt again from every catalog read podtop makes anyway, re-read when a pod names a type
not known (at most every ten minutes). A catalog that cannot be read leaves the names as they are: a pod
then shows its type's id.
*/
export class GpuNames {
	readonly #names = new Map<string, string>();
	readonly #prices = new Map<string, ListPrice>();
	readonly #read: () => Promise<readonly CatalogEntry[]>;
	#readAt = Number.NEGATIVE_INFINITY;
	#reading: Promise<void> | undefined;

	constructor(read: () => Promise<readonly CatalogEntry[]>) {
		this.#read = read;
	}

	learn(types: readonly CatalogEntry[]): void {
		for (const {id, name, price} of types) {
			this.#names.set(id, name);
			if (price) {
				this.#prices.set(id, {secure: price.secure, community: price.community});
			}
		}
	}

	/** Each known type's list price per GPU-hour and cloud, as the last catalog read said. */
	get prices(): ReadonlyMap<string, ListPrice> {
		return this.#prices;
	}

	/** The names, read first if one of `ids` is not known and the last read is old enough. */
	async for(ids: Iterable<string>): Promise<ReadonlyMap<string, string>> {
		const missing = [...ids].some(id => !this.#names.has(id));
		if (missing && Date.now() - this.#readAt >= refreshAfterMs) {
			this.#readAt = Date.now();
			this.#reading ??= this.#read()
				.then(types => {
					this.learn(types);
				})
				.catch(() => undefined)
				.finally(() => {
					this.#reading = undefined;
				});
		}

		await this.#reading;
		return this.#names;
	}

	/** Known now, without reading. */
	get known(): ReadonlyMap<string, string> {
		return this.#names;
	}
}

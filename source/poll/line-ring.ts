/** A bounded buffer of the latest items: pushing past `capacity` drops the oldest, counted in `dropped`. */
export class LineRing<T> {
	readonly capacity: number;
	#items: Array<T | undefined>;
	#start = 0;
	#size = 0;
	#dropped = 0;

	constructor(capacity: number) {
		this.capacity = capacity;
		this.#items = Array.from({length: capacity});
	}

	get size(): number {
		return this.#size;
	}

	get dropped(): number {
		return this.#dropped;
	}

	push(item: T): void {
		if (this.#size < this.capacity) {
			this.#items[(this.#start + this.#size) % this.capacity] = item;
			this.#size++;
			return;
		}

		this.#items[this.#start] = item;
		this.#start = (this.#start + 1) % this.capacity;
		this.#dropped++;
	}

	/** The items, oldest first (a new array). */
	toArray(): T[] {
		const head = this.#items.slice(this.#start, Math.min(this.capacity, this.#start + this.#size));
		const tail = this.#items.slice(0, this.#size - head.length);
		return [...head, ...tail] as T[];
	}
}

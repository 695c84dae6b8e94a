/** What the heap orders: due time, then the order timers were set in. `index` is the entry's place, -1 when out. */
export type HeapEntry = {readonly due: number; readonly seq: number; index: number};

const before = (a: HeapEntry, b: HeapEntry) => a.due < b.due || (a.due === b.due && a.seq < b.seq);

/**
A binary heap of timers, earliest (then first set) on top. Each entry knows its place, so a cancelled
timer leaves at once: nothing waits in the heap to be skipped, and garbage dies young.
*/
export class TimerHeap<T extends HeapEntry> {
	readonly #items: T[] = [];

	get size(): number {
		return this.#items.length;
	}

	peek(): T | undefined {
		return this.#items[0];
	}

	push(entry: T): void {
		entry.index = this.#items.push(entry) - 1;
		this.#up(entry.index);
	}

	pop(): T | undefined {
		const top = this.#items[0];
		if (top) {
			this.remove(top);
		}

		return top;
	}

	remove(entry: T): void {
		const {index} = entry;
		const items = this.#items;
		if (index < 0 || items[index] !== entry) {
			return;
		}

		entry.index = -1;
		const last = items.pop()!;
		if (last === entry) {
			return;
		}

		items[index] = last;
		last.index = index;
		this.#down(index);
		this.#up(last.index);
	}

	/** Empties the heap, handing back what it held. */
	drain(): T[] {
		const items = this.#items.splice(0);
		for (const entry of items) {
			entry.index = -1;
		}

		return items;
	}

	#up(start: number): void {
		const items = this.#items;
		const entry = items[start]!;
		let index = start;
		while (index > 0) {
			const parent = Math.floor((index - 1) / 2);
			if (!before(entry, items[parent]!)) {
				break;
			}

			items[index] = items[parent]!;
			items[index]!.index = index;
			index = parent;
		}

		items[index] = entry;
		entry.index = index;
	}

	#down(start: number): void {
		const items = this.#items;
		const entry = items[start]!;
		let index = start;
		for (;;) {
			const left = index * 2 + 1;
			if (left >= items.length) {
				break;
			}

			const right = left + 1;
			const child = right < items.length && before(items[right]!, items[left]!) ? right : left;
			if (!before(items[child]!, entry)) {
				break;
			}

			items[index] = items[child]!;
			items[index]!.index = index;
			index = child;
		}

		items[index] = entry;
		entry.index = index;
	}
}

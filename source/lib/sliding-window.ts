/** Counts events in the trailing `windowMs` of real time. Memory is bounded by the events inside the window. */
export class SlidingWindow {
	readonly #windowMs: number;
	#times: number[] = [];
	#head = 0;

	constructor(windowMs: number) {
		this.#windowMs = windowMs;
	}

	count(now: number): number {
		this.#prune(now);
		return this.#times.length - this.#head;
	}

	add(now: number): number {
		this.#prune(now);
		this.#times.push(now);
		return this.#times.length - this.#head;
	}

	/**
	Moves an event counted at `from` to `to` (not before any event counted): a request counts from
	when its answer came, the latest its arrival at the service can have been.
	*/
	move(from: number, to: number): void {
		const index = this.#times.indexOf(from, this.#head);
		if (index === -1) {
			return;
		}

		this.#times.splice(index, 1);
		this.#times.push(Math.max(to, this.#times.at(-1) ?? to));
	}

	/** Milliseconds until the oldest event leaves the window (0 when empty). */
	msUntilSlotFrees(now: number): number {
		this.#prune(now);
		const oldest = this.#times[this.#head];
		return oldest === undefined ? 0 : Math.max(0, oldest + this.#windowMs - now);
	}

	#prune(now: number): void {
		const cutoff = now - this.#windowMs;
		while (this.#head < this.#times.length && this.#times[this.#head]! <= cutoff) {
			this.#head++;
		}

		if (this.#head > 1024 && this.#head * 2 > this.#times.length) {
			this.#times = this.#times.slice(this.#head);
			this.#head = 0;
		}
	}
}

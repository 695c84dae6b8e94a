import {type HeapEntry, TimerHeap} from '../lib/timer-heap.js';

/**
A simulated clock. Simulated time runs `speed` times faster than real time, so tests can cover
half an hour of job retention in seconds. Every timer it hands out is tracked, so `close()` leaves
nothing behind.

A clock can start in the past (`pastMs`): until `goLive`, it is a discrete-event clock that
`advance` drives, firing timers in simulated order without real waiting, so hours of a fleet's
life run in a second; `goLive` then carries on in real time from where it got to, each pending
timer armed as a real one.
*/
export type SimTimer = {readonly cancel: () => void};

/** A pending timer: the heap's entry and the handle the caller cancels it by, one object (the past sets 60,000 an hour). */
class Entry implements HeapEntry, SimTimer {
	index = -1;
	/** The real timer, once armed (a live clock, or after `goLive`). */
	handle: NodeJS.Timeout | undefined = undefined;

	constructor(
		readonly due: number,
		readonly seq: number,
		/** Dropped once the timer is done, so nothing it closed over outlives it. */
		public callback: (() => void) | undefined,
		readonly finish: (entry: Entry) => void,
	) {}

	cancel(): void {
		this.finish(this);
	}
}

export class SimClock {
	readonly speed: number;
	/** Simulated epoch ms the clock started at: what `elapsed` counts from. */
	readonly #origin: number;
	/** Real and simulated time at the moment the clock went live (or was made). */
	#realAnchor = performance.now();
	#simAnchor: number;
	/** While in the past: simulated now, moved only by `advance`. */
	#virtual: number | undefined;
	readonly #heap = new TimerHeap<Entry>();
	readonly #timers = new Set<Entry>();
	#seq = 0;
	readonly #finishEntry: (entry: Entry) => void;

	constructor(speed = 1, simStart = Date.now(), pastMs = 0) {
		if (!(speed > 0) || !Number.isFinite(speed)) {
			throw new RangeError(`speed must be a positive number, got ${speed}`);
		}

		if (!(pastMs >= 0) || !Number.isFinite(pastMs)) {
			throw new RangeError(`the past must be a span of zero or more milliseconds, got ${pastMs}`);
		}

		this.speed = speed;
		this.#origin = simStart - pastMs;
		this.#simAnchor = simStart;
		this.#virtual = pastMs > 0 ? this.#origin : undefined;
		this.#finishEntry = entry => {
			this.#finish(entry);
		};
	}

	/** True while the clock runs its past (until `goLive`). */
	get inPast(): boolean {
		return this.#virtual !== undefined;
	}

	/** Simulated milliseconds since the epoch. */
	now(): number {
		return this.#virtual ?? this.#simAnchor + (performance.now() - this.#realAnchor) * this.speed;
	}

	/** Simulated milliseconds since the simulator started: what seeded curves (load, stock, prices) follow, so a seed replays them. */
	elapsed(): number {
		return this.now() - this.#origin;
	}

	/** Real milliseconds that `simMs` of simulated time take. */
	toRealMs(simMs: number): number {
		return simMs / this.speed;
	}

	/**
	Runs `callback` after `simMs` of simulated time, never earlier: Node's timers may fire a fraction of
	a millisecond before the monotonic clock says they are due, so an early wake-up sleeps again.
	*/
	setTimeout(callback: () => void, simMs: number): SimTimer {
		const entry = new Entry(this.now() + Math.max(0, simMs), this.#seq++, callback, this.#finishEntry);
		this.#timers.add(entry);
		if (this.#virtual === undefined) {
			this.#arm(entry);
		} else {
			this.#heap.push(entry);
		}

		return entry;
	}

	/**
	In the past: fires, in simulated order, every timer due up to `until`, and moves the clock there; it
	stops early (the clock at the last timer fired) once `budgetMs` of real time have gone. True once
	the clock has reached `until`.
	*/
	advance(until: number, budgetMs = Number.POSITIVE_INFINITY): boolean {
		if (this.#virtual === undefined) {
			throw new Error('advance() drives a clock in its past; this one is live');
		}

		const deadline = performance.now() + budgetMs;
		let fired = 0;
		for (let next = this.#heap.peek(); next && next.due <= until; next = this.#heap.peek()) {
			const {callback} = next;
			this.#virtual = Math.max(this.#virtual, next.due);
			this.#finish(next);
			callback!();
			// Reading the real clock costs; every 64 timers is often enough.
			if (++fired % 64 === 0 && performance.now() >= deadline) {
				return false;
			}
		}

		this.#virtual = Math.max(this.#virtual, until);
		return true;
	}

	/** Leaves the past: real time runs on from where the clock got to, and every pending timer is armed as a real one. */
	goLive(): void {
		if (this.#virtual === undefined) {
			return;
		}

		this.#simAnchor = this.#virtual;
		this.#realAnchor = performance.now();
		this.#virtual = undefined;
		for (const entry of this.#heap.drain()) {
			this.#arm(entry);
		}
	}

	/** Number of timers pending; lets tests prove that nothing leaks. */
	get pendingTimers(): number {
		return this.#timers.size;
	}

	/** Number of real (Node) timers armed: none while the clock is in its past. */
	get armedTimers(): number {
		let armed = 0;
		for (const entry of this.#timers) {
			armed += entry.handle ? 1 : 0;
		}

		return armed;
	}

	close(): void {
		for (const entry of this.#timers) {
			clearTimeout(entry.handle);
			entry.callback = undefined;
		}

		this.#timers.clear();
		this.#heap.drain();
	}

	#arm(entry: Entry, realMs = this.toRealMs(entry.due - this.now())): void {
		entry.handle = setTimeout(
			() => {
				entry.handle = undefined;
				const remaining = entry.due - this.now();
				if (remaining > 0) {
					this.#arm(entry, Math.max(1, this.toRealMs(remaining)));
					return;
				}

				const {callback} = entry;
				this.#finish(entry);
				callback!();
			},
			Math.min(Math.max(0, realMs), 2_147_483_647),
		);
		entry.handle.unref?.();
	}

	/** The timer fired or was cancelled: out of the heap, its real timer cleared, forgotten. */
	#finish(entry: Entry): void {
		entry.callback = undefined;
		this.#heap.remove(entry);
		clearTimeout(entry.handle);
		entry.handle = undefined;
		this.#timers.delete(entry);
	}
}

/**
A simulated clock. Simulated time runs `speed` times faster than real time, so tests can cover
half an hour of job retention in seconds. Every timer it hands out is tracked, so `close()` leaves
nothing behind.
*/
export type SimTimer = {readonly cancel: () => void};

export class SimClock {
	readonly speed: number;
	readonly #realStart = performance.now();
	readonly #simStart: number;
	readonly #timers = new Set<NodeJS.Timeout>();

	constructor(speed = 1, simStart = Date.now()) {
		if (!(speed > 0) || !Number.isFinite(speed)) {
			throw new RangeError(`speed must be a positive number, got ${speed}`);
		}

		this.speed = speed;
		this.#simStart = simStart;
	}

	/** Simulated milliseconds since the epoch. */
	now(): number {
		return this.#simStart + ((performance.now() - this.#realStart) * this.speed);
	}

	/** Simulated milliseconds since the simulator started: what seeded curves (load, stock, prices) follow, so a seed replays them. */
	elapsed(): number {
		return (performance.now() - this.#realStart) * this.speed;
	}

	/** Real milliseconds that `simMs` of simulated time take. */
	toRealMs(simMs: number): number {
		return simMs / this.speed;
	}

	/** Runs `callback` after `simMs` of simulated time. */
	setTimeout(callback: () => void, simMs: number): SimTimer {
		const realMs = Math.min(Math.max(0, this.toRealMs(simMs)), 2_147_483_647);
		const handle = setTimeout(() => {
			this.#timers.delete(handle);
			callback();
		}, realMs);
		handle.unref?.();
		this.#timers.add(handle);
		return {
			cancel: () => {
				clearTimeout(handle);
				this.#timers.delete(handle);
			},
		};
	}

	/** Number of timers pending; lets tests prove that nothing leaks. */
	get pendingTimers(): number {
		return this.#timers.size;
	}

	close(): void {
		for (const handle of this.#timers) {
			clearTimeout(handle);
		}

		this.#timers.clear();
	}
}

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
		return this.#simStart + (performance.now() - this.#realStart) * this.speed;
	}

	/** Simulated milliseconds since the simulator started: what seeded curves (load, stock, prices) follow, so a seed replays them. */
	elapsed(): number {
		return (performance.now() - this.#realStart) * this.speed;
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
		const due = this.now() + Math.max(0, simMs);
		let handle: NodeJS.Timeout;
		const arm = (realMs: number) => {
			handle = setTimeout(
				() => {
					this.#timers.delete(handle);
					const remaining = due - this.now();
					if (remaining > 0) {
						arm(Math.max(1, this.toRealMs(remaining)));
						return;
					}

					callback();
				},
				Math.min(Math.max(0, realMs), 2_147_483_647),
			);
			handle.unref?.();
			this.#timers.add(handle);
		};

		arm(this.toRealMs(simMs));
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

export type Loop = {
	readonly start: () => void;
	/** Runs now (a user pressed `r`); if a run is under way, another follows it at once. */
	readonly trigger: () => void;
	/** The interval may have changed (a pane was shown or hidden): the sleep under way is cut or stretched to it. */
	readonly reschedule: () => void;
	readonly stop: () => void;
};

/**
A self-scheduling loop: run, wait for it to finish, sleep `intervalMs()`, run again. Runs never
overlap (unlike setInterval), and stop() clears the timer and aborts the run in flight.
*/
export function createLoop(run: (signal: AbortSignal) => Promise<void>, intervalMs: () => number): Loop {
	let timer: NodeJS.Timeout | undefined;
	let controller: AbortController | undefined;
	let running = false;
	let again = false;
	let stopped = true;
	/** When the sleep under way began (the last run's end). */
	let sleptFrom = 0;

	const tick = async () => {
		timer = undefined;
		if (stopped) {
			return;
		}

		running = true;
		controller = new AbortController();
		try {
			await run(controller.signal);
		} catch {
			// A loop reports its own errors to the store; it must never die of one.
		} finally {
			running = false;
			controller = undefined;
		}

		if (stopped) {
			return;
		}

		if (again) {
			again = false;
			void tick();
			return;
		}

		sleep(Date.now());
	};

	/** Sleeps the interval from `from`, then runs. */
	function sleep(from: number) {
		sleptFrom = from;
		timer = setTimeout(
			() => {
				void tick();
			},
			Math.max(0, intervalMs() - (Date.now() - from)),
		);
	}

	return {
		start() {
			if (stopped) {
				stopped = false;
				// Stopped and started again while a run was in flight: that run schedules the next.
				if (!running) {
					void tick();
				}
			}
		},
		trigger() {
			if (stopped) {
				return;
			}

			if (running) {
				again = true;
				return;
			}

			clearTimeout(timer);
			void tick();
		},
		reschedule() {
			if (timer === undefined) {
				return;
			}

			clearTimeout(timer);
			sleep(sleptFrom);
		},
		stop() {
			stopped = true;
			clearTimeout(timer);
			timer = undefined;
			controller?.abort();
		},
	};
}

import type {SimClock} from './clock.js';
import {crashLines, type CrashCause} from './logs/crash-causes.js';
import type {Random} from './random.js';
import type {SimWorker} from './sim-worker.js';

/** Restarts before the service gives up on a worker and places a new one (which crashes the same way). */
export const restartsBeforeReplacing = 3;
/** The first back-off before a crashed container restarts, doubled each time (10 s, 20 s, 40 s). */
const firstBackOffMs = 10_000;

type Hooks = {
	readonly clock: SimClock;
	readonly random: Random;
	/** Why containers die now; undefined once the fault is cleared (the next start succeeds). */
	readonly cause: () => CrashCause | undefined;
	/** The container came up after all. */
	readonly recovered: (worker: SimWorker, startedAt: number) => void;
	/** Too many restarts: the worker goes. */
	readonly giveUp: (worker: SimWorker) => void;
};

/**
A container that dies a few seconds after it starts, restarted after a growing back-off, its uptime reset
each time. The worker never serves a job, and the service keeps reporting it as it last saw it, RUNNING or
THROTTLED, never UNHEALTHY: only its logs tell.
*/
export function crashLoop(worker: SimWorker, cause: CrashCause, hooks: Hooks): void {
	const {clock, random} = hooks;
	worker.timer = clock.setTimeout(
		() => {
			const now = clock.now();
			for (const [source, line] of crashLines(cause, 1)) {
				worker.logs.write(now, source, line);
			}

			if (worker.restarts >= restartsBeforeReplacing) {
				hooks.giveUp(worker);
				return;
			}

			const backOff = firstBackOffMs * 2 ** worker.restarts;
			worker.logs.write(now, 'system', `Back-off ${backOff / 1000}s restarting failed container (restart ${worker.restarts + 1})`);
			worker.timer = clock.setTimeout(() => {
				const restartedAt = clock.now();
				worker.restarts++;
				worker.startedAt = restartedAt;
				worker.logs.write(restartedAt, 'system', 'Starting container');
				worker.logs.write(restartedAt, 'container', '--- Starting Serverless Worker |  Version 1.7.9 ---');
				const still = hooks.cause();
				if (still) {
					crashLoop(worker, still, hooks);
				} else {
					hooks.recovered(worker, restartedAt);
				}
			}, backOff);
		},
		random.int(3000, 12_000),
	);
}

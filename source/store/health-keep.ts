import type {AlertRule} from '../config/alert-rules.js';

/**
How long an endpoint's health samples are kept: the ten minutes its charts draw when nothing is
recorded (its figures read five). An endpoint off screen is polled about once a minute at 500
endpoints, so a count alone kept two hours of it, 6 MB for 500 endpoints after a morning.
*/
export const healthKeepMs = 10 * 60_000;

/** How long to keep them under these alert rules: a failure-rate rule reads the samples of its window, a stuck-queue rule those of its time. */
export function healthKeepFor(rules: readonly AlertRule[] | undefined): number {
	let keepMs = healthKeepMs;
	for (const rule of rules ?? []) {
		if (rule.kind === 'failure-rate') {
			keepMs = Math.max(keepMs, rule.windowMs);
		}

		if (rule.kind === 'stuck-queue') {
			// The samples since the queue went unserved, and a minute before it.
			keepMs = Math.max(keepMs, rule.forMs + 60_000);
		}
	}

	return keepMs;
}

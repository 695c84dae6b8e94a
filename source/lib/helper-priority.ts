import {readdirSync} from 'node:fs';
import {getPriority, setPriority} from 'node:os';

/** How far below the main thread (in nice steps) V8's helper threads run. */
export const helperNiceSteps = 10;

/**
For the commands that run for hours (the dashboard, `watch`, the agent): V8's helper threads (its
collector's concurrent marking and parallel scavenges, its optimising compiler) run at a lower
priority than the main thread: their work is in the background by design. On a two-core jump host they
took a core from the main thread while it wrote a poll into history: at 1,000 endpoints + 10,000
pods a write used 100-140 ms of the process's CPU inside 55-75 ms of wall time, its main thread
waiting for a core. Their work is the same; it waits for a core the main thread does not need.

Linux only (each thread of the process is listed in /proc, and a thread's nice value is its own);
elsewhere, or where it is refused, nothing changes. Every thread there is lowered (libuv's pool too,
once loading the modules has started it); threads started later (image decoders) run at the main
thread's priority. Returns how many threads were lowered.
*/
export function lowerHelperThreadPriority(): number {
	let threads: string[];
	try {
		threads = readdirSync('/proc/self/task');
	} catch {
		return 0;
	}

	const main = String(process.pid);
	const nice = Math.min(19, getPriority() + helperNiceSteps);
	let lowered = 0;
	for (const thread of threads) {
		if (thread === main) {
			continue;
		}

		try {
			setPriority(Number(thread), nice);
			lowered++;
		} catch {}
	}

	return lowered;
}

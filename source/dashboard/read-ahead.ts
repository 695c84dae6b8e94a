import type {HistoryReader, PastAccount} from '../history/history-types.js';

/** How long after a step the next moment is read ahead: the step's own frame is drawn first. */
export const readAheadIdleMs = 100;
/** An answer read ahead serves a step this long after it was read: later, the recorder may have rolled up or pruned that moment. */
const freshMs = 30_000;
/** Only moments this long before the read are read ahead: a poll still in flight may be written at a younger one. */
const settledMs = 15_000;

type Answer = PastAccount | undefined | Promise<PastAccount | undefined>;

type Entry = {
	readonly at: number;
	/** Whether the pods' values were read (a read without them cannot serve a pane that shows them). */
	readonly pods: boolean;
	readonly readAt: number;
	readonly answer: Answer;
};

export type ReadAhead = {
	/** The answer read ahead for `at` (used once), or undefined when there is none that serves it. */
	readonly take: (at: number, pods: boolean) => {readonly answer: Answer} | undefined;
	/** Reads `at` once the dashboard has been idle a moment (kept for a short while); the next `schedule`, `take` or `clear` cancels it. */
	readonly schedule: (history: HistoryReader, at: number, pods: boolean) => void;
	/** Drops what was read ahead (the cursor is live again) and cancels a read not yet made. */
	readonly clear: () => void;
};

/**
The moment after the cursor's next step, read while the dashboard is idle: someone stepping with
`[` or `]` sees each step in the frame of its key, with the history's read done between the keys
(10,000 pods: the read was two thirds of a step). One moment is kept, for one use, for a short while.
*/
export function createReadAhead(now: () => number = Date.now): ReadAhead {
	let entry: Entry | undefined;
	let timer: ReturnType<typeof setTimeout> | undefined;
	const cancel = () => {
		if (timer) {
			clearTimeout(timer);
			timer = undefined;
		}
	};

	const read = (history: HistoryReader, at: number, pods: boolean) => {
		timer = undefined;
		if (at > now() - settledMs) {
			return;
		}

		try {
			const answer = history.stateAtNow ? history.stateAtNow(at, {pods}) : history.stateAt(at);
			if (answer instanceof Promise) {
				// A failure is the step's to say, when it takes this answer; unhandled until then is not a crash.
				answer.catch(() => undefined);
			}

			entry = {at, pods: pods || !history.stateAtNow, readAt: now(), answer};
			// Not held once stale (10,000 pods of the past are megabytes).
			timer = setTimeout(() => {
				timer = undefined;
				entry = undefined;
			}, freshMs);
		} catch {
			// The step reads again and says what failed.
		}
	};

	return {
		take(at, pods) {
			cancel();
			const found = entry;
			entry = undefined;
			if (found?.at !== at || (pods && !found.pods) || now() - found.readAt > freshMs) {
				return undefined;
			}

			return {answer: found.answer};
		},
		schedule(history, at, pods) {
			cancel();
			entry = undefined;
			timer = setTimeout(read, readAheadIdleMs, history, at, pods);
		},
		clear() {
			cancel();
			entry = undefined;
		},
	};
}

import {describeError, keyRefusalStatus} from '../api/errors.js';
import type {PodRecord} from '../model/pod.js';
import type {StoreWrites} from '../store/create-store.js';
import type {Cadence} from './cadence.js';
import {createLoop} from './loop.js';
import type {ScheduledApi} from './scheduled-api.js';

type Options = {
	readonly writes: StoreWrites;
	readonly api: ScheduledApi;
	readonly cadence: Cadence;
	/** Whether the Pods pane is shown and its whole list is fetched less often than `cadence.podsMs`. */
	readonly wanted: () => boolean;
	/** A pod on screen is gone from the account: the whole list is fetched again. */
	readonly onGone: () => void;
	readonly now: () => number;
};

/** How often the rows on screen are looked at while wanted: a row is read within this of falling due (the list's polls move when that is). */
const checkMs = 1000;

export type PodsOnScreen = ReturnType<typeof createPodsOnScreen>;

/**
The rows on screen of a list of thousands of pods, kept at the pane's cadence while the whole list
is fetched less often (its cost grows with its length): one request for the rows the user reads,
by id, for those not read within the cadence. Rows that scroll into view stale are asked for at once.
*/
export function createPodsOnScreen({writes, api, cadence, wanted, onGone, now}: Options) {
	let onScreen: readonly string[] = [];
	/** When the whole list was last written, and each pod on screen read on its own since. */
	let listAt = Number.NEGATIVE_INFINITY;
	const readAt = new Map<string, number>();
	// A row read within a quarter-second of its cadence is read with the others (one request, not two).
	const isDue = (podId: string, at: number) => at - Math.max(listAt, readAt.get(podId) ?? Number.NEGATIVE_INFINITY) >= cadence.podsMs - 250;

	const loop = createLoop(
		async () => {
			const at = now();
			const due = wanted() ? onScreen.filter(podId => isDue(podId, at)) : [];
			if (due.length === 0) {
				return;
			}

			for (const podId of due) {
				readAt.set(podId, at);
			}

			try {
				const records = await api.podsById(due, 'visible');
				writes.updatePods(
					records.filter((record): record is PodRecord => record !== null),
					now(),
				);
				writes.reportSource('graphql', now());
				if (records.includes(null)) {
					onGone();
				}
			} catch (error) {
				writes.reportSource('graphql', now(), describeError(error), keyRefusalStatus(error));
			}
		},
		() => (wanted() ? checkMs : cadence.podsMs),
	);

	return {
		loop,
		/** The whole list was just written: every row in it is as fresh as a row read on its own. */
		listWritten(at: number) {
			listAt = at;
			readAt.clear();
		},
		showing(podIds: readonly string[]) {
			onScreen = podIds;
			if (wanted() && podIds.some(podId => isDue(podId, now()))) {
				loop.trigger();
			}
		},
	};
}

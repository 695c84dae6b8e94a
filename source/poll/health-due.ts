import type {Cadence} from './cadence.js';

type Options = {
	readonly ids: readonly string[];
	/** Endpoints on screen now; undefined counts every endpoint as on screen (headless, or before the UI said). */
	readonly onScreen: ReadonlySet<string> | undefined;
	readonly lastPolled: ReadonlyMap<string, number>;
	readonly now: number;
	readonly cadence: Cadence;
};

/** A tick may come a little early: a poll due within this much is taken now rather than a whole tick later. */
const slackMs = 250;

/**
Which endpoints' `/health` to poll this tick. `/health` is precious (no published limit): those on
screen every `healthMs`; the rest spread out so that at most `healthOffScreenPerSecond` requests a
second go to them, each at least every `healthHiddenMs` and never staler than `healthStalestMs`.
*/
export function healthDue({ids, onScreen, lastPolled, now, cadence}: Options): {onScreen: string[]; offScreen: string[]} {
	let offScreenCount = 0;
	if (onScreen !== undefined) {
		for (const id of ids) {
			offScreenCount += onScreen.has(id) ? 0 : 1;
		}
	}

	const offScreenMs = Math.min(cadence.healthStalestMs, Math.max(cadence.healthHiddenMs, (offScreenCount * 1000) / cadence.healthOffScreenPerSecond));
	const due = (id: string, everyMs: number) => now - (lastPolled.get(id) ?? Number.NEGATIVE_INFINITY) >= everyMs - slackMs;
	const result = {onScreen: [] as string[], offScreen: [] as string[]};
	for (const id of ids) {
		if (onScreen === undefined || onScreen.has(id)) {
			if (due(id, cadence.healthMs)) {
				result.onScreen.push(id);
			}
		} else if (due(id, offScreenMs)) {
			result.offScreen.push(id);
		}
	}

	return result;
}

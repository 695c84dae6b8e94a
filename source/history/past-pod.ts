import type {PodRecord} from '../api/graphql-types.js';
import type {PodState} from '../store/types.js';
import {podAt} from './fields.js';

type Values = ReadonlyArray<number | null>;

/** A past pod has no utilisation history in the store: one empty list for them all. */
const noHistory: readonly number[] = [];

/**
A pod's state at a past moment, made of its stored record and its sample (status and values), and
keeping them (private: the state reads as any other) so the next moment can tell whether it would be
made of the same: one object a pod (a time cursor's step makes 10,000), not a state and a note of
what it was made of.
*/
export class PastPod implements PodState {
	readonly record: PodRecord;
	readonly utilHistory: readonly number[] = noHistory;
	readonly #stored: PodRecord;
	readonly #state: string | null;
	readonly #values: Values;

	constructor(stored: PodRecord, state: string | null, values: Values) {
		this.record = podAt(stored, {state: state ?? undefined, values});
		this.#stored = stored;
		this.#state = state;
		this.#values = values;
	}

	/** Whether this pod was made of the same stored record (the same object), status and values. */
	madeOf(stored: PodRecord, state: string | null, values: Values): boolean {
		if (this.#stored !== stored || this.#state !== state || this.#values.length !== values.length) {
			return false;
		}

		const kept = this.#values;
		// eslint-disable-next-line unicorn/no-for-loop -- by index: no iterator or callback for each of 10,000 pods
		for (let index = 0; index < kept.length; index++) {
			if (kept[index] !== values[index]) {
				return false;
			}
		}

		return true;
	}
}

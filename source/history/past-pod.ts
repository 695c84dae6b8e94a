import type {PodRecord} from '../model/pod.js';
import type {PodCostFields, PodGlance} from '../store/pod-figures.js';
import type {PodState} from '../store/types.js';
import {kindFields, podAt, podUptimeAt, storedStart} from './fields.js';

type Values = ReadonlyArray<number | null>;

/** A past pod has no utilisation history in the store: one empty list for them all. */
const noHistory: readonly number[] = [];

/** A pod sample's fixed fields (cost, GPU count, up, CPU, memory); its GPUs' pairs follow. */
const fixed = kindFields.pod.length;

/**
A pod's state at a past moment, made of its stored record and its sample (status and values), and
keeping them (private: the state reads as any other) so the next moment can tell whether it would be
made of the same: one object a pod (a time cursor's step makes 10,000), not a state and a note of
what it was made of. Its record is made when first read (the rows on screen, a pod's details): the
Pods pane's rows and totals read its glance, told from the sample.
*/
export class PastPod implements PodState {
	readonly utilHistory: readonly number[] = noHistory;
	#record: PodRecord | undefined;
	readonly #stored: PodRecord;
	readonly #state: string | null;
	readonly #values: Values;
	/** The moment it is of: its uptime is told from it. */
	readonly #at: number;

	constructor(stored: PodRecord, state: string | null, values: Values, at: number) {
		this.#stored = stored;
		this.#state = state;
		this.#values = values;
		this.#at = at;
	}

	get record(): PodRecord {
		this.#record ??= podAt(this.#stored, {state: this.#state ?? undefined, values: this.#values}, this.#at);
		return this.#record;
	}

	/** What `glanceOf(this.record)` says, read from the sample as `podAt` makes the record of it. */
	glance(): PodGlance {
		const stored = this.#stored;
		const values = this.#values;
		const up = values[2] === 1;
		// The GPUs `podAt` lists in the runtime (a pod not up has none): a pair of values each, the last maybe half.
		const gpus = up && values.length > fixed ? Math.ceil((values.length - fixed) / 2) : 0;
		let util: number | undefined;
		let vram: number | undefined;
		if (gpus > 0) {
			let used = 0;
			let memory = 0;
			for (let gpu = 0; gpu < gpus; gpu++) {
				used += values[fixed + 2 * gpu] ?? 0;
				memory += values[fixed + 2 * gpu + 1] ?? 0;
			}

			util = Math.round(used / gpus);
			vram = memory / gpus;
		}

		return {
			id: stored.id,
			name: stored.name,
			desiredStatus: this.desiredStatus,
			costPerHr: this.costPerHr,
			volumeInGb: this.volumeInGb,
			gpuCount: values[1] ?? stored.gpuCount,
			gpuDisplayName: stored.machine?.gpuDisplayName,
			up,
			gpus,
			util,
			vram,
			cpu: up ? (values[3] ?? undefined) : undefined,
			memory: up ? (values[4] ?? undefined) : undefined,
			uptimeInSeconds: up ? (podUptimeAt(stored, this.#at) ?? undefined) : undefined,
		};
	}

	/**
	What its cost is made of (`podCost`), read from the sample: a past pod is its own (the cost totals
	of 10,000 pods make no object for each); `desiredStatus`, `costPerHr` and `volumeInGb` below.
	*/
	costFields(): PodCostFields {
		return this;
	}

	get desiredStatus(): string | null {
		return this.#state ?? null;
	}

	get costPerHr(): number | null {
		return this.#values[0] ?? null;
	}

	get volumeInGb(): number | null | undefined {
		return this.#stored.volumeInGb;
	}

	/** As JSON (the agent's answer), the state it reads as: its record and history. */
	toJSON(): PodState {
		return {record: this.record, utilHistory: this.utilHistory};
	}

	/** Whether this pod was made of the same stored record (the same object), status and values, and at `at` says the same uptime. */
	madeOf(stored: PodRecord, state: string | null, values: Values, at: number): boolean {
		if (this.#stored !== stored || this.#state !== state || this.#values.length !== values.length) {
			return false;
		}

		// A running pod's uptime moves with the moment (a pod up at another moment is another pod's row).
		if (at !== this.#at && values[2] === 1 && storedStart(stored) !== undefined) {
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

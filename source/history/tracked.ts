import type {Sample} from './fields.js';
import type {SeriesKind} from './history-types.js';

/** A thing by kind and key (its id, or its name where things are looked up by name), as every map of things keys it. */
export const thingKey = (kind: SeriesKind, key: string) => `${kind}\0${key}`;

/** What the file says of a thing already in it (the writer's entry, updated in place once a batch is committed). */
export type KnownSeries = {readonly id: number; readonly name: string; readonly deleted: boolean};

/**
What the recorder keeps of one thing between writes, found by the store's own id (a key the map
has hashed before: a key made afresh each poll costs a hash per thing, 10,000 pods a poll). The
`next*` fields hold what a batch not yet committed wrote; `commitTracked` makes them the last.
*/
export type Tracked = {
	/** `kind\0id`, made once: the batch's and the series map's key. */
	readonly thing: string;
	/** The file's series of it, once it has one. */
	series: KnownSeries | undefined;
	/** The sample of its state as last written (the recorder's last state of it): compared as numbers, its text kept for the keyframe. */
	sample: Sample | undefined;
	text: string | undefined;
	/** Its record's part as last written (JSON). */
	record: string | undefined;
	nextSample: Sample | undefined;
	nextText: string | undefined;
	nextRecord: string | undefined;
	/** Whether `next*` hold anything (the sample, the record). */
	pendingSample: boolean;
	pendingRecord: boolean;
};

/** The things of one kind, by the store's id. */
export type TrackedKind = Map<string, Tracked>;

export type TrackedThings = Readonly<Record<Exclude<SeriesKind, 'account'>, TrackedKind>>;

export const emptyTracked = (): TrackedThings => ({endpoint: new Map(), pod: new Map(), gpu: new Map()});

/** The thing of `id`, kept from now on. */
export function trackedOf(things: TrackedKind, kind: SeriesKind, id: string): Tracked {
	let tracked = things.get(id);
	if (!tracked) {
		tracked = {
			thing: thingKey(kind, id),
			series: undefined,
			sample: undefined,
			text: undefined,
			record: undefined,
			nextSample: undefined,
			nextText: undefined,
			nextRecord: undefined,
			pendingSample: false,
			pendingRecord: false,
		};
		things.set(id, tracked);
	}

	return tracked;
}

/** What a committed batch wrote of each thing becomes what was last written. */
export function commitTracked(pending: readonly Tracked[]): void {
	for (const tracked of pending) {
		if (tracked.pendingSample) {
			tracked.sample = tracked.nextSample;
			tracked.text = tracked.nextText;
			tracked.pendingSample = false;
		}

		if (tracked.pendingRecord) {
			tracked.record = tracked.nextRecord;
			tracked.pendingRecord = false;
		}

		tracked.nextSample = undefined;
		tracked.nextText = undefined;
		tracked.nextRecord = undefined;
	}
}

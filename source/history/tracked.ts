import type {SeriesKind} from './history-types.js';
import {refilled} from './sample-values.js';

/** A thing by kind and key (its id, or its name where things are looked up by name), as every map of things keys it. */
export const thingKey = (kind: SeriesKind, key: string) => `${kind}\0${key}`;

/** What the file says of a thing already in it (the writer's entry, updated in place once a batch is committed). */
export type KnownSeries = {readonly id: number; readonly name: string; readonly deleted: boolean};

/**
What the recorder keeps of one thing between writes, found by the store's own id (a key the map
has hashed before: a key made afresh each poll costs a hash per thing, 10,000 pods a poll). The
`next*` fields hold what a batch not yet committed wrote; `commitTracked` makes them the last. Its
values are kept in two lists of numbers of its own, the last written and the next, swapped at each
commit: a thing whose figures move at every poll makes no list. Their text is not kept: it is let go
with the batch (young). 8,300 texts kept a poll were copied by the collector and then promoted to die
old. Only a thing written again unchanged at the minute's keyframe keeps the text made for it (`text`)
until its values change: a quiet thing (a stopped pod) has its text made once, not every minute.
*/
export type Tracked = {
	/** `kind\0id`, made once: the batch's and the series map's key. */
	readonly thing: string;
	/** The file's series of it, once it has one. */
	series: KnownSeries | undefined;
	/** Its sample as last written (the recorder's last state of it): whether there is one, its state and its values (NaN unknown). */
	sampled: boolean;
	state: string | undefined;
	values: Float64Array;
	/** The text of `values`, once they were written again unchanged at a keyframe; let go when they change. */
	text: string | undefined;
	/** Its record's part as last written (JSON). */
	record: string | undefined;
	/** The start its record's part says, as last written (`KindSpec.startedAt`). */
	startedAt: number | undefined;
	nextStartedAt: number | undefined;
	nextState: string | undefined;
	nextValues: Float64Array;
	nextSampled: boolean;
	nextRecord: string | undefined;
	/** Whether `next*` hold anything (the sample, the record). */
	pendingSample: boolean;
	pendingRecord: boolean;
};

const none = new Float64Array(0);

/** The things of one kind, by the store's id. */
export type TrackedKind = Map<string, Tracked>;

export type TrackedThings = Readonly<Record<Exclude<SeriesKind, 'account'>, TrackedKind>>;

export const emptyTracked = (): TrackedThings => ({endpoint: new Map(), pod: new Map(), gpu: new Map()});

/**
A kind's things by their position in its collection's ids (`idsOf` in `collection-changes.ts`: one
list while the service's order holds), so that a walk finds each thing's entry and its state at the
last walk by index: two lookups by id a thing (10,000 pods at every poll) were a seventh of a flush.
*/
export type Positions = {
	/** The ids the lists below follow. */
	ids: readonly string[] | undefined;
	tracked: Array<Tracked | undefined>;
	/** The states the last walk saw, of the collection `statesOf` (undefined while a walk is under way or none finished). */
	states: unknown[];
	statesOf: object | undefined;
};

export type PositionsByKind = Readonly<Record<Exclude<SeriesKind, 'account'>, Positions>>;

const noPositions = (): Positions => ({ids: undefined, tracked: [], states: [], statesOf: undefined});

export const emptyPositions = (): PositionsByKind => ({endpoint: noPositions(), pod: noPositions(), gpu: noPositions()});

/** The positions of `ids`: kept while the ids are the same list, started afresh when they are not. */
export function positionsFor(positions: Positions, ids: readonly string[]): Positions {
	if (positions.ids !== ids) {
		positions.ids = ids;
		positions.tracked = Array.from({length: ids.length}, () => undefined);
		positions.states = Array.from({length: ids.length}, () => undefined);
		positions.statesOf = undefined;
	}

	return positions;
}

/** The thing of `id`, kept from now on. */
export function trackedOf(things: TrackedKind, kind: SeriesKind, id: string): Tracked {
	let tracked = things.get(id);
	if (!tracked) {
		tracked = {
			thing: thingKey(kind, id),
			series: undefined,
			sampled: false,
			state: undefined,
			values: none,
			text: undefined,
			record: undefined,
			startedAt: undefined,
			nextStartedAt: undefined,
			nextState: undefined,
			nextValues: none,
			nextSampled: false,
			nextRecord: undefined,
			pendingSample: false,
			pendingRecord: false,
		};
		things.set(id, tracked);
	}

	return tracked;
}

/** What a committed batch wrote of each thing (the first `count` of `pending`) becomes what was last written. */
export function commitTracked(pending: readonly Tracked[], count = pending.length): void {
	for (let index = 0; index < count; index++) {
		const tracked = pending[index]!;
		if (tracked.pendingSample) {
			const {values} = tracked;
			tracked.values = tracked.nextValues;
			tracked.nextValues = values;
			tracked.state = tracked.nextState;
			tracked.sampled = tracked.nextSampled;
			tracked.text = undefined;
			tracked.pendingSample = false;
		}

		if (tracked.pendingRecord) {
			tracked.record = tracked.nextRecord;
			tracked.startedAt = tracked.nextStartedAt;
			tracked.pendingRecord = false;
		}

		tracked.nextState = undefined;
		tracked.nextSampled = false;
		tracked.nextRecord = undefined;
		tracked.nextStartedAt = undefined;
	}
}

/** The next values of a thing, `values` copied into its spare list (a new one only when the count of values changed). */
export function keepNext(tracked: Tracked, values: readonly number[]): void {
	if (tracked.nextValues.length !== values.length) {
		tracked.nextValues = new Float64Array(values.length);
	}

	tracked.nextValues.set(values);
}

/** The text of a thing's values as last written (as `JSON.stringify` wrote them: NaN, unknown, as null), kept from now on. */
export function writtenText(tracked: Tracked): string {
	tracked.text ??= JSON.stringify(refilled(tracked.values));
	return tracked.text;
}

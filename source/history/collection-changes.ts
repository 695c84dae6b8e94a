import type {Collection} from '../store/state.js';
import {statesInOrder} from '../store/states-in-order.js';
import type {RunningPods} from './account-sample.js';
import type {Batch, PendingWrites, Written} from './batch.js';
import {idsOf} from './collection-ids.js';
import {comparableLists} from './comparable-lists.js';
import type {SeriesKind} from './history-types.js';
import {type FilledValues, sameValues} from './sample-values.js';
import type {SampleRows} from './sample-rows.js';
import {keepNext, positionsFor, writtenText, type KnownSeries, thingKey, type Tracked, type TrackedKind, trackedOf} from './tracked.js';
import {sameExcept} from './unchanged.js';

export type KindSpec<S extends {readonly record: object}> = {
	readonly kind: Exclude<SeriesKind, 'account'>;
	readonly name: (state: S) => string;
	/** Its sample's values, filled in place (`sample-values.ts`), or undefined when there is nothing to record (an endpoint with no health yet). */
	readonly values: (state: S) => FilledValues | undefined;
	/** Its sample's state (a pod's status, a GPU type's stock word). */
	readonly sampleState: (state: S) => string | undefined;
	readonly recordPart: (state: S) => unknown;
	/** The keys `recordPart` leaves out: a record whose other keys are equal to the last one's has the same part (no JSON made). */
	readonly partOmits?: readonly string[];
	/**
	When the thing last started (a pod's runtime: the poll's instant less its uptime), kept in its record's part as
	`startedAt`, so that the past tells its uptime. Written again only when it moves by more than `startSlackMs`: the
	uptime is in whole seconds and the poll's instant moves with the network, and a pod's record is not to be
	written again at every poll for that.
	*/
	readonly startedAt?: (state: S, polledAt: number) => number | undefined;
	/** A change worth a timeline event (a pod's status), from the previous state of the same thing. */
	readonly statusOf?: (state: S) => string | undefined;
	/** Counts every thing of the collection (in its order) into the account's figures (the running pods). */
	readonly tally?: (state: S | undefined, totals: RunningPods) => void;
};

/** How far a thing's start may move (told again at each poll) before its record is written again: a restart moves it further. */
const startSlackMs = 15_000;

/** A thing's start now: the one last written while it has not moved by more than the slack (undefined: it is not running). */
function startNow(told: number | undefined, last: number | undefined): number | undefined {
	return told === undefined || last === undefined || Math.abs(told - last) > startSlackMs ? told : last;
}

export type Options = {
	/** Write every live thing whole (the minute's keyframe), not only what changed. */
	readonly keyframe: boolean;
	/** What the file holds of a thing (undefined: never seen, so a new id after the first list is a creation worth an event). */
	readonly known: (thing: string) => KnownSeries | undefined;
	readonly batch: Batch;
	/** The batch's samples, by state (put into `batch.samples` once all are in). */
	readonly rows: SampleRows;
	readonly written: Written;
	/** Updates to `written`, applied once the batch is committed. */
	readonly pending: PendingWrites;
	/** The account's figures, counted by the kind's `tally` in the same walk (undefined: the walk did not see every thing in its order). */
	totals?: RunningPods;
};

/** A thing's sample written again as it was last written (the keyframe of a thing unchanged since). */
function pushUnchanged<S extends {readonly record: object}>(spec: KindSpec<S>, tracked: Tracked, state: S, rows: SampleRows): void {
	const ref = tracked.series?.id ?? tracked.thing;
	if (tracked.sampled) {
		rows.add(ref, tracked.state, writtenText(tracked));
		return;
	}

	const values = spec.values(state);
	if (values) {
		rows.add(ref, spec.sampleState(state), JSON.stringify(values));
	}
}

/**
A changed thing's sample, written when it differs from the one last written (always at a keyframe
or when the thing is new or back): compared as numbers, its JSON made only when it is written (and
let go with the batch).
Returns whether it was written. What was last written is then its sample (`next*`, once committed).
*/
function pushSample(tracked: Tracked, state: string | undefined, values: FilledValues | undefined, always: boolean, rows: SampleRows): boolean {
	const had = tracked.sampled;
	const same = had && values !== undefined && tracked.state === state && sameValues(tracked.values, values);
	if (!same && (values !== undefined || had)) {
		if (values) {
			keepNext(tracked, values);
		}

		tracked.nextSampled = values !== undefined;
		tracked.nextState = state;
		tracked.pendingSample = true;
	}

	if (!values || (same && !always)) {
		return false;
	}

	// Equal values have equal text (0 and -0 both write 0): written again unchanged at a keyframe, the text is kept.
	rows.add(tracked.series?.id ?? tracked.thing, state, same ? (tracked.text ??= JSON.stringify(values)) : JSON.stringify(values));
	return true;
}

/**
One collection's part of a batch (endpoints, pods or GPU types): the samples and records of the things
whose state changed (all of them at a keyframe), things new, gone or whose status moved, and the
account's running pods counted in the same walk.
*/
export function collectionChanges<S extends {readonly record: object}>(
	spec: KindSpec<S>,
	previous: Collection<S> | undefined,
	next: Collection<S>,
	options: Options,
): void {
	const {keyframe, known, batch, rows, written, pending} = options;
	if (!keyframe && previous === next) {
		return;
	}

	// Created or deleted only between two lists of one source: a hand-over between recorders or feeds writes neither.
	const comparable = comparableLists(previous, next);
	const things: TrackedKind = written.things[spec.kind];
	const {ids, inOrder} = idsOf(next);
	// The states by index where the store listed them (no lookup by id), when its map's keys are the list's order.
	const listed = inOrder ? statesInOrder(next) : undefined;
	const {tally} = spec;
	// The account's figures in the same walk, when the map's keys are the list's order (each id once, as the service lists them).
	const totals: RunningPods | undefined = tally && inOrder ? {running: 0, cost: 0} : undefined;
	let kept = 0;
	const positions = positionsFor(written.positions[spec.kind], ids);
	const trackedAt = positions.tracked;
	// The states the last walk saw, written over by this one as it goes: the previous collection's by index when that walk
	// was of it (the same ids), else looked up by id.
	const states = positions.states as Array<S | undefined>;
	const statesBefore = previous !== undefined && positions.statesOf === previous ? states : undefined;
	positions.statesOf = undefined;
	// eslint-disable-next-line unicorn/no-for-loop -- the index walks the list's order beside the keys
	for (let index = 0; index < ids.length; index++) {
		const id = ids[index]!;
		const state = listed ? listed[index] : next.byId[id];
		const before = statesBefore ? statesBefore[index] : previous?.byId[id];
		states[index] = state;
		if (before) {
			kept++;
		}

		if (totals) {
			tally!(state, totals);
		}

		if (!state || (!keyframe && before === state)) {
			continue;
		}

		let tracked = trackedAt[index];
		if (!tracked) {
			tracked = trackedOf(things, spec.kind, id);
			trackedAt[index] = tracked;
		}

		tracked.series ??= known(tracked.thing);
		if (before === state) {
			// The minute's keyframe, for a thing unchanged since the last write: written again as it was.
			pushUnchanged(spec, tracked, state, rows);
			continue;
		}

		// A batch not committed (nothing in it) may have left its marks: this one starts afresh.
		tracked.pendingSample = false;
		tracked.pendingRecord = false;
		const name = spec.name(state);
		const entry = tracked.series;
		let touched = false;
		if (!before && comparable && previous.order.length > 0 && !entry) {
			touched = true;
			batch.events.push({type: 'created', kind: spec.kind, subject: id, name, data: {}});
		}

		const startedAt = spec.startedAt ? startNow(spec.startedAt(state, next.updatedAt ?? 0), tracked.startedAt) : undefined;
		const samePart =
			before !== undefined &&
			spec.partOmits !== undefined &&
			startedAt === tracked.startedAt &&
			sameExcept(before.record as Record<string, unknown>, state.record as Record<string, unknown>, spec.partOmits);
		if (!samePart) {
			const part = spec.recordPart(state);
			const record = JSON.stringify(startedAt === undefined ? part : {...(part as Record<string, unknown>), startedAt});
			if (tracked.record !== record) {
				touched = true;
				batch.records.push({thing: tracked.thing, record});
				tracked.nextRecord = record;
				tracked.nextStartedAt = startedAt;
				tracked.pendingRecord = true;
			}
		}

		if (pushSample(tracked, spec.sampleState(state), spec.values(state), keyframe || !before, rows)) {
			touched = true;
		}

		if (tracked.pendingSample || tracked.pendingRecord) {
			pending.things[pending.thingCount++] = tracked;
		}

		const status = spec.statusOf?.(state);
		const statusBefore = before ? spec.statusOf?.(before) : undefined;
		if (before && status !== statusBefore) {
			touched = true;
			batch.events.push({type: 'status', kind: spec.kind, subject: id, name, data: {from: statusBefore ?? null, to: status ?? null}});
		}

		// Its series first, before anything of it is written: added, renamed or back.
		if (touched && (!entry || entry.deleted || entry.name !== name)) {
			batch.things.set(tracked.thing, {kind: spec.kind, key: id, name});
		}
	}

	positions.statesOf = next;
	if (totals) {
		options.totals = totals;
	}

	if (comparable) {
		deletions(spec, previous, next, kept, things, options);
	} else if (next.updatedAt !== undefined) {
		holdUnconfirmed(spec, previous, next, things, written.unconfirmed[spec.kind]);
	}
}

/** A thing gone from the service's list, said so: its series marked deleted, an event, and the recorder lets go of it. */
function writeDeleted(kind: Exclude<SeriesKind, 'account'>, id: string, name: string, things: TrackedKind, {batch, pending}: Options): void {
	const thing = things.get(id)?.thing ?? thingKey(kind, id);
	batch.things.set(thing, {kind, key: id, name});
	batch.deleted.push(thing);
	batch.events.push({type: 'deleted', kind, subject: id, name, data: {}});
	pending.gone.push([things, id]);
}

/** What the last list of the same source had and this one lacks, and what two of its lists in a row lacked (`unconfirmed`). */
function deletions<S extends {readonly record: object}>(
	spec: KindSpec<S>,
	previous: Collection<S>,
	next: Collection<S>,
	kept: number,
	things: TrackedKind,
	options: Options,
): void {
	// Something left only when fewer of the previous things are still here.
	if (previous !== next && kept < previous.order.length) {
		for (const id of Object.keys(previous.byId)) {
			const before = previous.byId[id];
			if (!next.byId[id] && before) {
				writeDeleted(spec.kind, id, spec.name(before), things, options);
			}
		}
	}

	const unconfirmed = options.written.unconfirmed[spec.kind];
	if (unconfirmed.size > 0) {
		for (const [id, name] of unconfirmed) {
			if (!next.byId[id] && !previous.byId[id] && things.has(id)) {
				writeDeleted(spec.kind, id, name, things, options);
			}
		}

		unconfirmed.clear();
	}
}

/**
A list of another source than the last (or the first): what the recorder holds live and it lacks
is not deleted on its word, only held as unconfirmed until the next list of the same source. Run
at a change of source only (a walk of every thing held).
*/
function holdUnconfirmed<S extends {readonly record: object}>(
	spec: KindSpec<S>,
	previous: Collection<S> | undefined,
	next: Collection<S>,
	things: TrackedKind,
	unconfirmed: Map<string, string>,
): void {
	for (const [id, tracked] of things) {
		if (next.byId[id]) {
			unconfirmed.delete(id);
		} else if (!unconfirmed.has(id)) {
			const before = previous?.byId[id];
			unconfirmed.set(id, before ? spec.name(before) : (tracked.series?.name ?? id));
		}
	}
}

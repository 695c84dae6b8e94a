import {type PositionsByKind, type Tracked, type TrackedThings, emptyPositions, emptyTracked} from './tracked.js';
import type {EventRow} from './event-rows.js';
import type {SeriesKind} from './history-types.js';
import type {RowLists, Rows} from './sample-rows.js';

/** What one flush writes, before series ids are known. */
export type Batch = {
	/** The things below that the file does not hold as they are now: new, renamed, deleted or back. */
	readonly things: Map<string, {readonly kind: SeriesKind; readonly key: string; readonly name: string}>;
	/**
	Samples as stored, by their state (or null), two values a row (no object made per row): the
	series' id (or the thing's key, for one the file has no series of yet; the writer puts the id in
	its place) and the values' JSON text. The writer binds a state once per statement, not per row.
	The lists are the recorder's, filled again by its next batch (`Written.rowLists`).
	*/
	readonly samples: Map<string | null, Rows>;
	readonly records: Array<{readonly thing: string; readonly record: string}>;
	readonly deleted: string[];
	readonly events: EventRow[];
	/** Marks kept with the batch, in the same transaction (how far the audit log was read). */
	readonly meta: Map<string, string>;
};

/** A sample as written: its state and the values' JSON text. */
export type WrittenSample = {readonly state: string | undefined; readonly values: string};

/**
What has been written so far, so that only changes are written again. Updated after each commit.
Each thing's sample and record as last written are kept with it (`things`); its sample is that of
its state in the store at the last write (the recorder keeps that state).
*/
export type Written = {
	/** The account's sample (it has no state object of its own). */
	readonly samples: Map<string, WrittenSample>;
	readonly jobStatus: Map<string, string>;
	readonly things: TrackedThings;
	/** The same things by their position in the collection's ids, and the states the last walk saw. */
	readonly positions: PositionsByKind;
	/** The lists of samples by state, filled by each batch in turn (`sample-rows.ts`). */
	readonly rowLists: RowLists;
	/** The list of things a batch holds `next*` of (`PendingWrites.things`), filled by each batch in turn. */
	readonly pendingThings: Tracked[];
	/**
	Things held live that a list of another source lacked (id to name, by kind): deleted only when the
	next list of that source lacks them too (`comparableLists`), kept when it has them.
	*/
	readonly unconfirmed: UnconfirmedThings;
};

export type UnconfirmedThings = Readonly<Record<Exclude<SeriesKind, 'account'>, Map<string, string>>>;

/** Updates to `Written`, applied once a batch is committed. */
export type PendingWrites = {
	readonly samples: Map<string, WrittenSample>;
	readonly jobStatus: Map<string, string>;
	/** The things whose `next*` the batch holds (`commitTracked`): the first `thingCount` of the list (kept from batch to batch: 10,000 pods' list grown each poll was 230 KB). */
	readonly things: Tracked[];
	thingCount: number;
	/** Things gone from the service's list: let go of (their map, their id) once the batch that says so is committed, so that an agent's memory does not grow with every pod it ever saw. */
	readonly gone: Array<readonly [Map<string, Tracked>, string]>;
};

export const emptyWritten = (): Written => ({
	samples: new Map(),
	jobStatus: new Map(),
	things: emptyTracked(),
	positions: emptyPositions(),
	rowLists: new Map(),
	pendingThings: [],
	unconfirmed: {endpoint: new Map(), pod: new Map(), gpu: new Map()},
});

export const emptyPending = (things: Tracked[]): PendingWrites => ({samples: new Map(), jobStatus: new Map(), things, thingCount: 0, gone: []});

export const emptyBatch = (): Batch => ({things: new Map(), samples: new Map(), records: [], deleted: [], events: [], meta: new Map()});

export const isEmptyBatch = (batch: Batch) => batch.samples.size + batch.records.length + batch.deleted.length + batch.events.length + batch.meta.size === 0;

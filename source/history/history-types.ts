import type {LogLine} from '../model/log-line.js';
import type {AccountSnapshot} from '../store/account-snapshot.js';
import type {FiringAlert} from '../store/types.js';
import type {EndpointWorkers} from '../store/worker-track.js';
import type {SpendBucketSize, SpendCategory, SpendResourceKind} from '../model/spend.js';

/** What one resource (or the account, `id` empty) cost over a window, in dollars. */
export type BilledTotal = {readonly total: number; readonly byCategory: Readonly<Partial<Record<SpendCategory, number>>>};

/** A resource's bills over a window: its kind, its id (names are the reader's things'). */
export type ResourceBilled = BilledTotal & {readonly kind: SpendResourceKind; readonly id: string};

/**
The bills kept for a window, summed: the account's by category and each resource's, from the bucket size that covers
the window best (the finest among equals). `from` and `to` are the buckets' own edges, which may reach past the window
asked (a day's bucket for the hour asked); `kinds` are the resource kinds whose bills were read for those buckets.
*/
export type RecordedBills = {
	readonly size: SpendBucketSize;
	readonly from: number;
	readonly to: number;
	readonly account: BilledTotal;
	readonly kinds: readonly SpendResourceKind[];
	/** The costliest first. */
	readonly resources: readonly ResourceBilled[];
};

/** What a series is of: an endpoint, a pod, a GPU type, or the account as a whole. */
export type SeriesKind = 'endpoint' | 'pod' | 'gpu' | 'account';
export const seriesKinds: readonly SeriesKind[] = ['endpoint', 'pod', 'gpu', 'account'];

/** The storage tiers, finest first: every sample as polled, then 1-minute and 1-hour rollups. */
export type Tier = 'raw' | 'minute' | 'hour';
export const tiers: readonly Tier[] = ['raw', 'minute', 'hour'];

/** One point of a series: raw samples have min = mean = max = last; rollups summarise their bucket. */
export type SeriesPoint = {
	/** Start of the bucket (rollups) or when the sample was taken (raw), ms since the epoch. */
	readonly at: number;
	/** How many raw samples the point summarises. */
	readonly count: number;
	/** The categorical value at the end of the bucket: a pod's status, a GPU type's stock word. */
	readonly state: string | undefined;
	readonly min: ReadonlyArray<number | null>;
	readonly mean: ReadonlyArray<number | null>;
	readonly max: ReadonlyArray<number | null>;
	readonly last: ReadonlyArray<number | null>;
};

export type SeriesQuery = {
	readonly kind: SeriesKind;
	/** Ids (or, for convenience, names) of the things wanted. */
	readonly keys: readonly string[];
	readonly from: number;
	readonly to: number;
	/** The resolution wanted (ms): points are merged into buckets this wide; the tier is chosen from it. */
	readonly step?: number;
};

export type Series = {
	readonly kind: SeriesKind;
	readonly key: string;
	/** The thing's name as the service last gave it (raw: sanitise before showing). */
	readonly name: string;
	/** When it was last seen deleted (gone from the service's list), if it was. */
	readonly deletedAt: number | undefined;
	/** What each position of the point arrays means (see fields.ts). */
	readonly fields: readonly string[];
	readonly tier: Tier;
	/** The bucket width of the points (0: raw samples, unmerged). */
	readonly step: number;
	readonly points: readonly SeriesPoint[];
};

/** A thing the store knows by id and name: what `podtop history <name>` resolves against. */
export type KnownThing = {
	readonly kind: SeriesKind;
	readonly key: string;
	readonly name: string;
	readonly firstAt: number;
	readonly lastAt: number;
	readonly deletedAt: number | undefined;
};

/** Every type of the timeline; `events --type alert` means both alert types, `recording` both of its own. */
export const historyEventTypes = [
	'alert.firing',
	'alert.resolved',
	'write',
	'job',
	'created',
	'deleted',
	'status',
	'recording.paused',
	'recording.resumed',
	// The clock was found behind the last write: what was stamped after now was set aside.
	'recording.clock',
	'load',
	'probe',
	// An endpoint's diagnosis changed (why its jobs wait), or cleared.
	'diagnosis',
	// An endpoint's workers changed (came, went, a status, a restart): the list as it is then.
	'workers',
] as const;

export type HistoryEventType = (typeof historyEventTypes)[number];

/** The words `events --type` takes: each type, a family (`alert`) standing for its types. */
export const eventTypeWords: readonly string[] = [...new Set(historyEventTypes.map(type => type.split('.')[0]!))];

/** One line of the recorded timeline. `data` holds what the type carries (an alert, a write's outcome, a job's times). */
export type HistoryEvent = {
	readonly at: number;
	readonly type: HistoryEventType;
	readonly kind: SeriesKind | undefined;
	/** Id of what it is about (an endpoint, pod or GPU type id, a rule's subject). */
	readonly subject: string | undefined;
	/** Name of what it is about, as the service gave it (sanitise before showing). */
	readonly name: string | undefined;
	readonly data: Readonly<Record<string, unknown>>;
};

/** The account as it was at a moment: the store's collections, and the alerts firing then. */
export type PastAccount = AccountSnapshot & {
	/** The moment shown. */
	readonly at: number;
	/** The tier the figures come from (older than the raw retention: minute or hour rollups). */
	readonly tier: Tier;
	readonly alerts: readonly FiringAlert[];
	/** The endpoints' workers as recorded then, by endpoint (only those whose workers were being read); undefined: this history keeps none. */
	readonly workers?: Readonly<Record<string, EndpointWorkers>>;
};

export type TierInfo = {readonly tier: Tier; readonly retentionMs: number; readonly from: number | undefined; readonly to: number | undefined};

export type HistoryInfo = {
	/** Where it reads from: the file, the agent's socket, or the Prometheus URL (no credentials). */
	readonly source: string;
	readonly kind: 'sqlite' | 'agent' | 'prometheus';
	readonly bytes: number | undefined;
	readonly tiers: readonly TierInfo[];
	readonly series: number | undefined;
	readonly events: number | undefined;
	/** `PRAGMA integrity_check`'s answer ('ok' when whole), when asked for. */
	readonly integrity: string | undefined;
};

export type StateAtOptions = {
	/**
	The pods are shown now (the Pods pane, a pod's details): their values are read with the rest. Else
	they are read when first asked (the Endpoints pane's step reads only their count).
	*/
	readonly pods?: boolean;
};

/**
The one read interface over recorded history, whatever keeps it: the local SQLite file, an agent
on this host (range requests over its socket), or a Prometheus that scrapes `podtop export`.
Every call reads a range or a moment; nothing loads the whole store.
*/
export type HistoryReader = {
	readonly kind: HistoryInfo['kind'];
	readonly series: (query: SeriesQuery) => Promise<readonly Series[]>;
	/**
	`series` answered at once, by a reader that keeps the history in this process (the SQLite file): a
	chart's new window or moment is drawn in the frame of the key that asked for it, not a frame later.
	*/
	readonly seriesNow?: (query: SeriesQuery) => readonly Series[];
	/** The account at `at`; undefined when nothing is recorded for that moment. */
	readonly stateAt: (at: number) => Promise<PastAccount | undefined>;
	/**
	`stateAt` answered at once, by a reader that keeps the history in this process (the SQLite file):
	the time cursor then shows the moment in the same frame as its banner, not a frame later.
	*/
	readonly stateAtNow?: (at: number, options?: StateAtOptions) => PastAccount | undefined;
	/** The timeline between two moments, oldest first, at most `limit` events (the newest kept). */
	readonly events: (from: number, to: number, limit?: number) => Promise<readonly HistoryEvent[]>;
	/** The things recorded (for names, completion and `history` lookups); `kind` narrows it. */
	readonly things: (kind?: SeriesKind) => Promise<readonly KnownThing[]>;
	/**
	The bills kept for a window, summed by category and by resource (undefined: none kept for it). Absent where no bills
	are kept: Prometheus has only the exporter's running total of the UTC day and the 50 costliest resources a kind, not
	the service's buckets.
	*/
	readonly bills?: (from: number, to: number) => Promise<RecordedBills | undefined>;
	/** The span recorded: the oldest and newest moment of any tier. */
	readonly span: () => Promise<{readonly from: number; readonly to: number} | undefined>;
	readonly info: (options?: {readonly integrity?: boolean}) => Promise<HistoryInfo>;
	/** The last lines the agent kept of a gone worker (the SQLite file only); undefined when it kept none. */
	readonly keptLines?: (endpointId: string, workerId: string) => Promise<readonly LogLine[] | undefined>;
	readonly close: () => Promise<void>;
};

/** What the recorder is doing, for the header and the agent's log. */
export type RecordingState =
	| {readonly state: 'off'; readonly reason?: string}
	| {readonly state: 'recording'; readonly file: string}
	/** Another podtop records this account: this one reads the same file only. */
	| {readonly state: 'reading'; readonly file: string; readonly reason: string}
	| {readonly state: 'paused'; readonly file: string; readonly reason: string}
	/** History comes from elsewhere (an agent, Prometheus): nothing is recorded here. */
	| {readonly state: 'remote'; readonly source: 'agent' | 'prometheus'};

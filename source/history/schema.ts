import {spendCategories, type SpendCategory} from '../model/spend.js';
import {kindFields} from './fields.js';
import type {SeriesKind} from './history-types.js';

/** The file's format; a file of a newer one is read by none of this podtop's code and left alone. */
export const schemaVersion = 1;
/** What `meta.app` says in every file podtop writes: any other SQLite file is foreign. */
export const appName = 'podtop history';

/**
The tables, all keyed by time first: each poll appends at the right edge of each B-tree (a
series-first key would touch a page per series on every poll: 10,000 pods wrote 55 MB of WAL a
poll). A series' points are read by seeking (at, sid) over the instants that were written (`polls`)
or the rollup buckets. Samples are JSON arrays in the kind's field order (`fields` says which).
*/
export const schemaStatements: readonly string[] = [
	`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
	`CREATE TABLE fields (kind TEXT NOT NULL, position INTEGER NOT NULL, name TEXT NOT NULL, PRIMARY KEY (kind, position)) WITHOUT ROWID`,
	// One row per thing ever recorded; the name as the service last gave it; deleted_at once it left the service's list.
	`CREATE TABLE series (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, key TEXT NOT NULL, name TEXT, first_at INTEGER NOT NULL, deleted_at INTEGER, UNIQUE (kind, key))`,
	// What changes rarely (an endpoint's scaler, a pod's image): a row when it changed.
	`CREATE TABLE records (sid INTEGER NOT NULL, at INTEGER NOT NULL, record TEXT NOT NULL, PRIMARY KEY (sid, at)) WITHOUT ROWID`,
	// Every instant samples were written at; `keyframe` = 1 when every live series was written whole.
	`CREATE TABLE polls (at INTEGER PRIMARY KEY, keyframe INTEGER NOT NULL DEFAULT 0)`,
	`CREATE INDEX polls_keyframes ON polls (keyframe, at)`,
	`CREATE TABLE raw (at INTEGER NOT NULL, sid INTEGER NOT NULL, state TEXT, v TEXT NOT NULL, PRIMARY KEY (at, sid)) WITHOUT ROWID`,
	...(['minute', 'hour'] as const).map(
		tier =>
			`CREATE TABLE ${tier} (at INTEGER NOT NULL, sid INTEGER NOT NULL, n INTEGER NOT NULL, state TEXT, vmin TEXT NOT NULL, vmean TEXT NOT NULL, vmax TEXT NOT NULL, vlast TEXT NOT NULL, PRIMARY KEY (at, sid)) WITHOUT ROWID`,
	),
	// The timeline: alerts, writes, jobs, things created, deleted or changing status. `ref` ties an alert's firing to its resolution.
	`CREATE TABLE events (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, type TEXT NOT NULL, kind TEXT, subject TEXT, name TEXT, ref TEXT, data TEXT NOT NULL)`,
	`CREATE INDEX events_at ON events (at)`,
	`CREATE INDEX events_ref ON events (ref, at)`,
];

/** A category's column in `bill_rows`: its name as podtop says it (a fixed list, never service data). */
export const billColumn = (category: SpendCategory) => `"${category}"`;

/**
Two tables, created on any file opened for writing (files of before have neither): `bill_buckets` says which
bucket of which route was read when (a resource route lists only what cost something, so a bucket read and
empty is told from one never read), `bill_rows` holds the rows, keyed by route, bucket and resource, each category's
dollars in a column of its own (NULL where the service billed none), so a window's sums are made where they lie.
They were once `bill_reads` and `bills`, the amounts JSON text (30 days of 10,000 pods took 2.1 s to sum, walked row
by row): a file opened for writing moves them over (`migrateBills`). New names, so that an older podtop writing the
file since finds tables of its own (empty: it asks the service again) rather than buckets marked read with no rows.
*/
export const billStatements: readonly string[] = [
	`CREATE TABLE IF NOT EXISTS bill_buckets (route TEXT NOT NULL, size TEXT NOT NULL, start INTEGER NOT NULL, end INTEGER NOT NULL, read_at INTEGER NOT NULL, PRIMARY KEY (route, size, start)) WITHOUT ROWID`,
	`CREATE TABLE IF NOT EXISTS bill_rows (route TEXT NOT NULL, size TEXT NOT NULL, start INTEGER NOT NULL, resource TEXT NOT NULL, total REAL NOT NULL, ${spendCategories
		.map(category => `${billColumn(category)} REAL`)
		.join(', ')}, PRIMARY KEY (route, size, start, resource)) WITHOUT ROWID`,
];

/** Rows of the `fields` table: the fixed positions of each kind (a pod's per-GPU pairs follow, `gpuN.util`, `gpuN.memory`). */
export function fieldRows(): Array<[SeriesKind, number, string]> {
	return (Object.entries(kindFields) as Array<[SeriesKind, readonly string[]]>).flatMap(([kind, names]) =>
		names.map((name, position): [SeriesKind, number, string] => [kind, position, name]),
	);
}

import {csvRow} from '../format/csv.js';
import {formatMoment} from '../format/moment-text.js';
import {textTable} from '../format/text-table.js';
import type {KnownThing} from '../history/history-types.js';

const iso = (at: number | undefined) => (at === undefined ? null : new Date(at).toISOString());

/** What is recorded, as `podtop history` (no thing named) lists it: kind, id, name, first seen, deleted. */
export function thingsTable(things: readonly KnownThing[]): string {
	return `${textTable(
		['KIND', 'ID', 'NAME', 'FIRST SEEN', 'DELETED'],
		things.map(thing => [thing.kind, thing.key, thing.name, formatMoment(thing.firstAt), thing.deletedAt === undefined ? '–' : formatMoment(thing.deletedAt)]),
	)}\n`;
}

/** The same for jq (print with inertJson): `jq -r '.[] | select(.kind == "endpoint") | .name'`. */
export function thingsDocument(things: readonly KnownThing[]) {
	return things.map(thing => ({
		kind: thing.kind,
		key: thing.key,
		name: thing.name,
		firstSeen: iso(thing.firstAt),
		deleted: thing.deletedAt !== undefined,
		deletedAt: iso(thing.deletedAt),
	}));
}

export function thingsCsv(things: readonly KnownThing[]): string {
	const rows = things.map(thing => csvRow([thing.kind, thing.key, thing.name, iso(thing.firstAt), iso(thing.deletedAt)]));
	return `${[csvRow(['kind', 'key', 'name', 'first_seen', 'deleted_at']), ...rows].join('\n')}\n`;
}

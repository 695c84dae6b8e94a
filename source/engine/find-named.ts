import {formatMoment} from '../format/moment-text.js';
import {sanitizeLine} from '../format/sanitize.js';
import {NotFoundError} from '../lib/not-found-error.js';

/** Something a command line may name by its id or its name: an endpoint, a pod, a GPU type, or a thing recorded in history. */
export type Named = {
	readonly kind: string;
	readonly id: string;
	readonly name: string;
	/** Gone from the account (only the recorded history knows it). */
	readonly deletedAt?: number;
};

/** A thing as a sentence names it: `endpoint llama (ep1)`, `pod train (p1, deleted 2026-11-20 03:12:40)`. */
export function describeNamed(thing: Named): string {
	const name = sanitizeLine(thing.name);
	const id = sanitizeLine(thing.id);
	const deleted = thing.deletedAt === undefined ? '' : `, deleted ${formatMoment(thing.deletedAt)}`;
	return name === id || name === '' ? `${thing.kind} ${id}${deleted ? ` (${deleted.slice(2)})` : ''}` : `${thing.kind} ${name} (${id}${deleted})`;
}

/** A thing as a message names it without its kind: `llama (ep1)`, or its id alone when it has no other name. */
export function nameWithId({id, name}: Pick<Named, 'id' | 'name'>): string {
	return name === '' || name === id ? sanitizeLine(id) : `${sanitizeLine(name)} (${sanitizeLine(id)})`;
}

/** The edit distance of two short texts, or `limit + 1` once it is over `limit` (names are short: a 64 × 64 table at most). */
function editDistance(a: string, b: string, limit: number): number {
	if (Math.abs(a.length - b.length) > limit || a.length > 64 || b.length > 64) {
		return limit + 1;
	}

	let previous = Array.from({length: b.length + 1}, (_, index) => index);
	for (let row = 1; row <= a.length; row++) {
		const current = [row];
		for (let column = 1; column <= b.length; column++) {
			current[column] = Math.min(previous[column]! + 1, current[column - 1]! + 1, previous[column - 1]! + (a[row - 1] === b[column - 1] ? 0 : 1));
		}

		if (Math.min(...current) > limit) {
			return limit + 1;
		}

		previous = current;
	}

	return previous[b.length]!;
}

/** The few things a text nearly names, nearest first: a typo (a couple of letters off), a part of a name or id, the same first letters. */
export function closestNamed<T extends Named>(things: readonly T[], text: string): T[] {
	const wanted = text.toLowerCase();
	const limit = Math.max(1, Math.floor(wanted.length / 4));
	const score = (thing: T) => {
		const [name, id] = [thing.name.toLowerCase(), thing.id.toLowerCase()];
		const typo = Math.min(editDistance(wanted, name, limit), editDistance(wanted, id, limit));
		if (typo <= limit) {
			return 10 - typo;
		}

		if (name.includes(wanted) || id.includes(wanted) || (name.length > 2 && wanted.includes(name))) {
			return 2;
		}

		return name.slice(0, 3) === wanted.slice(0, 3) ? 1 : 0;
	};

	return things
		.map(thing => ({thing, score: score(thing)}))
		.filter(({score}) => score > 0)
		.sort((a, b) => b.score - a.score)
		.slice(0, 5)
		.map(({thing}) => thing);
}

/** How many things a list names before it says how many more there are. */
const listed = 8;

export type FindOptions = {
	/** What was looked for, when it is not there: `no endpoint "x" in this account`, `nothing is recorded for "x"`. */
	readonly missing: string;
	/** How to tell apart things that share a name: `its id`, `its id, or --kind endpoint|pod`. */
	readonly pickBy?: (found: readonly Named[]) => string;
	/** When nothing is near: where the whole list is (`podtop history lists them`); unset, the things themselves are listed. */
	readonly listedBy?: (count: number) => string;
};

/**
The one thing a name or id means, for every command that takes one (the write verbs, `run`, `job`,
`load`, `history`): its id first, then its exact name, then either without regard to case. Several
matches, or none, are a NotFoundError (exit 4) that lists the candidates with their ids: the
things sharing the name, or those nearest it (a typo, a part), or else the things there are.
*/
export function findNamed<T extends Named>(things: readonly T[], text: string, {missing, pickBy, listedBy}: FindOptions): T {
	const folded = text.toLowerCase();
	const tries = [
		things.filter(thing => thing.id === text),
		things.filter(thing => thing.name === text),
		things.filter(thing => thing.id.toLowerCase() === folded || thing.name.toLowerCase() === folded),
	];
	for (const found of tries) {
		if (found.length === 1) {
			return found[0]!;
		}

		if (found.length > 1) {
			throw new NotFoundError(
				`"${sanitizeLine(text)}" names ${found.length} things: ${found.map(thing => describeNamed(thing)).join('; ')}. Pick one by ${pickBy?.(found) ?? 'its id'}`,
			);
		}
	}

	const near = closestNamed(things, text);
	const some = things.slice(0, listed).map(thing => describeNamed(thing));
	const more = things.length > listed ? ` and ${things.length - listed} more` : '';
	throw new NotFoundError(
		`${missing}; ${
			near.length > 0
				? `the closest: ${near.map(thing => describeNamed(thing)).join('; ')}`
				: listedBy
					? listedBy(things.length)
					: things.length === 0
						? 'there are none'
						: `there are ${things.length}: ${some.join('; ')}${more}`
		}`,
	);
}

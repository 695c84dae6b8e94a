import {formatMoment} from '../format/moment-text.js';
import {sanitizeLine} from '../format/sanitize.js';
import type {KnownThing, SeriesKind} from '../history/history-types.js';
import {NotFoundError} from '../lib/not-found-error.js';
import {UsageError} from '../lib/usage-error.js';

/** A thing as a sentence names it: `endpoint llama (ep1)`, `pod train (p1, deleted 2026-11-20 03:12:40)`. */
export function describeThing(thing: KnownThing): string {
	if (thing.kind === 'account') {
		return 'the account';
	}

	const name = sanitizeLine(thing.name);
	const key = sanitizeLine(thing.key);
	const deleted = thing.deletedAt === undefined ? '' : `, deleted ${formatMoment(thing.deletedAt)}`;
	return name === key ? `${thing.kind} ${key}${deleted ? ` (${deleted.slice(2)})` : ''}` : `${thing.kind} ${name} (${key}${deleted})`;
}

const closest = (things: readonly KnownThing[], text: string): KnownThing[] => {
	const wanted = text.toLowerCase();
	const score = (thing: KnownThing) => {
		const [name, key] = [thing.name.toLowerCase(), thing.key.toLowerCase()];
		if (name.includes(wanted) || key.includes(wanted) || (name.length > 2 && wanted.includes(name))) {
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
};

/**
The one thing a name or id means among those recorded: its id first, then its exact name, then
either without regard to case. Several matches are a UsageError listing them and how to pick
(exit 2); none is a NotFoundError naming the closest (exit 4).
*/
export function findThing(things: readonly KnownThing[], text: string, kind?: SeriesKind): KnownThing {
	const pool = kind ? things.filter(thing => thing.kind === kind) : things;
	const folded = text.toLowerCase();
	const tries = [
		pool.filter(thing => thing.key === text),
		pool.filter(thing => thing.name === text),
		pool.filter(thing => thing.key.toLowerCase() === folded || thing.name.toLowerCase() === folded),
	];
	for (const found of tries) {
		if (found.length === 1) {
			return found[0]!;
		}

		if (found.length > 1) {
			const kinds = [...new Set(found.map(thing => thing.kind))];
			const how = kinds.length > 1 ? `its id, or --kind ${kinds.join('|')}` : 'its id';
			throw new UsageError(`"${sanitizeLine(text)}" names ${found.length} things: ${found.map(thing => describeThing(thing)).join('; ')}. Pick one by ${how}`);
		}
	}

	const near = closest(pool, text);
	const among = kind ? ` among the ${kind}s` : '';
	throw new NotFoundError(
		`nothing is recorded for "${sanitizeLine(text)}"${among}; ${
			near.length > 0
				? `the closest: ${near.map(thing => describeThing(thing)).join('; ')}`
				: `${pool.length} things are recorded${among} (\`podtop history\` lists them)`
		}`,
	);
}

import {describeNamed, findNamed} from '../engine/find-named.js';
import {sanitizeLine} from '../format/sanitize.js';
import type {KnownThing, SeriesKind} from '../history/history-types.js';

/** A thing as a sentence names it: `endpoint llama (ep1)`, `pod train (p1, deleted 2026-11-20 03:12:40)`. */
export function describeThing(thing: KnownThing): string {
	return thing.kind === 'account' ? 'the account' : describeNamed({...thing, id: thing.key});
}

/**
The one thing a name or id means among those recorded, found as every command finds one
(`findNamed`): several matches or none are exit 4, listing them or the closest.
*/
export function findThing(things: readonly KnownThing[], text: string, kind?: SeriesKind): KnownThing {
	const pool = (kind ? things.filter(thing => thing.kind === kind) : things).map(thing => ({...thing, id: thing.key, thing}));
	const among = kind ? ` among the ${kind}s` : '';
	return findNamed(pool, text, {
		missing: `nothing is recorded for "${sanitizeLine(text)}"${among}`,
		pickBy(found) {
			const kinds = [...new Set(found.map(thing => thing.kind))];
			return kinds.length > 1 ? `its id, or --kind ${kinds.join('|')}` : 'its id';
		},
		listedBy: count => `${count} things are recorded${among} (\`podtop history\` lists them)`,
	}).thing;
}

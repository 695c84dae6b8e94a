import type {Engine} from '../engine/create-engine.js';
import type {Named} from '../engine/find-named.js';
import type {NamedKind} from '../engine/write-spec.js';

/**
The endpoint, pod or GPU type a write verb names, by id or name (`engine.resolve`). Read-only, the
text is taken as it is: a write that will not be sent reads nothing either (its refusal names it).
*/
export async function writeTarget(engine: Engine, kind: NamedKind, text: string): Promise<Named> {
	return engine.readOnly ? {kind, id: text, name: ''} : engine.resolve(kind, text);
}

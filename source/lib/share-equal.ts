import {deepEqual} from './deep-equal.js';

type Container = Record<string | number, unknown>;

/** Points `next[key]` at the previous value equal to it: an object or a string (a number is a number). */
function keep(next: Container, key: string | number, value: unknown): void {
	if (typeof value === 'string' || (typeof value === 'object' && value !== null)) {
		next[key] = value;
	}
}

/**
Whether `next` equals `previous` (JSON-like data, as `deepEqual` says), and meanwhile each part of
`next` equal to the same part of `previous` (an object, a list, a string) is replaced by the
previous one. A polled record that changed (a pod's utilisation) then keeps what did not from the
last poll (its machine, its name, each GPU's id), and the copy just parsed is let go young: the
young generation copies, and the old one keeps, a third as much at each poll of 2,000 pods, and a
record compared again (the recorder, the rows) finds its unchanged parts the same objects at once.
`next` must be data of the caller's own (fresh from a parse); a frozen one is only compared.
*/
export function shareEqual(previous: unknown, next: unknown): boolean {
	if (Object.is(previous, next)) {
		return true;
	}

	if (typeof previous !== 'object' || typeof next !== 'object' || previous === null || next === null) {
		return false;
	}

	if (Object.isFrozen(next)) {
		return deepEqual(previous, next);
	}

	if (Array.isArray(next)) {
		if (!Array.isArray(previous)) {
			return false;
		}

		let equal = previous.length === next.length;
		const length = Math.min(previous.length, next.length);
		for (let index = 0; index < length; index++) {
			if (shareEqual(previous[index], next[index])) {
				keep(next as unknown as Container, index, previous[index]);
			} else {
				equal = false;
			}
		}

		return equal;
	}

	if (Array.isArray(previous)) {
		return false;
	}

	const before = previous as Container;
	const after = next as Container;
	let equal = true;
	let keys = 0;
	for (const key in after) {
		if (Object.hasOwn(after, key)) {
			keys++;
			if (Object.hasOwn(before, key) && shareEqual(before[key], after[key])) {
				keep(after, key, before[key]);
			} else {
				equal = false;
			}
		}
	}

	if (equal) {
		for (const key in before) {
			if (Object.hasOwn(before, key)) {
				keys--;
			}
		}
	}

	return equal && keys === 0;
}

import {deepEqual} from '../lib/deep-equal.js';

/**
Whether two records are equal but for the keys left out (each record of a poll is a new object, so
identity says nothing of the record; its parts the store found unchanged are the previous ones).
*/
export function sameExcept(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>, omit: readonly string[]): boolean {
	let count = 0;
	for (const key in a) {
		if (omit.includes(key)) {
			continue;
		}

		count++;
		const left = a[key];
		const right = b[key];
		if (left === right ? left === undefined && !Object.hasOwn(b, key) : !Object.hasOwn(b, key) || !deepEqual(left, right)) {
			return false;
		}
	}

	// The keys of `b` but those left out (a record from JSON has no keys but its own).
	// eslint-disable-next-line guard-for-in
	for (const _ in b) {
		count--;
	}

	for (const key of omit) {
		if (Object.hasOwn(b, key)) {
			count++;
		}
	}

	return count === 0;
}

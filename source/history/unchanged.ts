import {deepEqual} from '../lib/deep-equal.js';
import type {Sample} from './fields.js';

/** Whether a sample says what another said (compared as numbers: no text is made for those that did not change). */
export function sameSample(a: Sample | undefined, b: Sample): boolean {
	if (!a || a.state !== b.state || a.values.length !== b.values.length) {
		return false;
	}

	for (let index = 0; index < b.values.length; index++) {
		if (a.values[index] !== b.values[index]) {
			return false;
		}
	}

	return true;
}

/** Whether two records are equal but for the keys left out (each record of a poll is a new object, so identity says nothing). */
export function sameExcept(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>, omit: ReadonlySet<string>): boolean {
	let count = 0;
	for (const key in a) {
		if (omit.has(key)) {
			continue;
		}

		count++;
		if (!Object.hasOwn(b, key) || !deepEqual(a[key], b[key])) {
			return false;
		}
	}

	for (const key in b) {
		if (!omit.has(key)) {
			count--;
		}
	}

	return count === 0;
}

/** Structural equality for JSON-like data: lets pollers skip store writes when nothing changed. */
export function deepEqual(a: unknown, b: unknown): boolean {
	if (Object.is(a, b)) {
		return true;
	}

	if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
		return false;
	}

	if (Array.isArray(a)) {
		if (!Array.isArray(b) || a.length !== b.length) {
			return false;
		}

		// By index: `entries()` made an iterator and a pair an element, for every list of every record at every poll.
		// eslint-disable-next-line unicorn/no-for-loop -- two lists walked together
		for (let index = 0; index < a.length; index++) {
			if (!deepEqual(a[index], b[index])) {
				return false;
			}
		}

		return true;
	}

	if (Array.isArray(b)) {
		return false;
	}

	// Keys are counted, not listed: thousands of records are compared at every poll.
	const left = a as Record<string, unknown>;
	const right = b as Record<string, unknown>;
	let keys = 0;
	for (const key in left) {
		if (Object.hasOwn(left, key)) {
			if (!Object.hasOwn(right, key) || !deepEqual(left[key], right[key])) {
				return false;
			}

			keys++;
		}
	}

	for (const key in right) {
		if (Object.hasOwn(right, key)) {
			keys--;
		}
	}

	return keys === 0;
}

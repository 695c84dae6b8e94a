/** A copy of `items` with `item` appended, keeping at most the newest `limit`. */
export function appendBounded<T>(items: readonly T[], item: T, limit: number): T[] {
	const next = items.length >= limit ? items.slice(items.length - limit + 1) : [...items];
	next.push(item);
	return next;
}

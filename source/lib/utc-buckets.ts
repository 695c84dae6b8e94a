export const bucketSizes = ['hour', 'day', 'week', 'month', 'year'] as const;
export type BucketSize = (typeof bucketSizes)[number];

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;

/** The start of the UTC bucket `time` falls in (weeks start on Monday, as ISO weeks do). */
export function bucketStart(time: number, size: BucketSize): number {
	const date = new Date(time);
	switch (size) {
		case 'hour': {
			return Math.floor(time / hourMs) * hourMs;
		}

		case 'day': {
			return Math.floor(time / dayMs) * dayMs;
		}

		case 'week': {
			const day = Math.floor(time / dayMs) * dayMs;
			return day - ((date.getUTCDay() + 6) % 7) * dayMs;
		}

		case 'month': {
			return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
		}

		case 'year': {
			return Date.UTC(date.getUTCFullYear(), 0, 1);
		}
	}
}

/** The start of the bucket after the one starting at `start`, `count` buckets on (back, when negative). */
export function bucketAfter(start: number, size: BucketSize, count = 1): number {
	const date = new Date(start);
	switch (size) {
		case 'hour': {
			return start + count * hourMs;
		}

		case 'day': {
			return start + count * dayMs;
		}

		case 'week': {
			return start + count * 7 * dayMs;
		}

		case 'month': {
			return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + count, 1);
		}

		case 'year': {
			return Date.UTC(date.getUTCFullYear() + count, 0, 1);
		}
	}
}

/** The end of the bucket `time` falls in, or `time` itself on a boundary. */
export function bucketEnd(time: number, size: BucketSize): number {
	const start = bucketStart(time, size);
	return start === time ? time : bucketAfter(start, size);
}

/** The edges of the buckets from `start` to `end` (both boundaries): n + 1 of them. */
export function bucketBounds(start: number, end: number, size: BucketSize): number[] {
	const bounds = [start];
	for (let edge = bucketAfter(start, size); edge <= end; edge = bucketAfter(edge, size)) {
		bounds.push(edge);
	}

	return bounds;
}

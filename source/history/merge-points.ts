import {addToBucket, type Bucket, bucketSummary, emptyBucket} from './bucket.js';
import type {SeriesPoint} from './history-types.js';

/** Points merged into buckets `step` wide (aligned to the epoch), each summarising the points it holds. */
export function mergePoints(points: readonly SeriesPoint[], step: number): SeriesPoint[] {
	const merged: SeriesPoint[] = [];
	let start: number | undefined;
	let bucket: Bucket = emptyBucket();
	const close = () => {
		if (start !== undefined && bucket.count > 0) {
			merged.push({at: start, count: bucket.count, state: bucket.state, ...bucketSummary(bucket)});
		}
	};

	for (const point of points) {
		const bucketStart = Math.floor(point.at / step) * step;
		if (bucketStart !== start) {
			close();
			start = bucketStart;
			bucket = emptyBucket();
		}

		addToBucket(bucket, point.at, point.count, point.state, point);
	}

	close();
	return merged;
}

import {formatSpan} from '../lib/time-spec.js';
import type {Series} from '../history/history-types.js';

/** The stretch of time asked for, ms since the epoch. */
export type TimeRange = {readonly from: number; readonly to: number};

type Figures = {readonly min: number | null; readonly mean: number | null; readonly max: number | null; readonly last: number | null};

/** One point for jq: its time, how many samples it summarises, its state, and each field by name as {min, mean, max, last} (null when unknown then). */
export type PointDocument = {readonly at: string; readonly samples: number; readonly state: string | null} & Readonly<
	Record<string, Figures | null | string | number>
>;

export type SeriesDocument = {
	readonly kind: Series['kind'];
	readonly key: string;
	readonly name: string;
	readonly deleted: boolean;
	readonly deletedAt: string | null;
	readonly tier: Series['tier'];
	/** The points' width (`1m`), null for raw samples (each as recorded). */
	readonly step: string | null;
	readonly stepMs: number;
	readonly from: string;
	readonly to: string;
	readonly fields: readonly string[];
	readonly points: readonly PointDocument[];
};

const iso = (at: number) => new Date(at).toISOString();

/**
A series as `podtop history --json` prints it (one document): per point an object keyed by field
name, so `jq '.points[] | [.at, .inQueue.max]'` reads it, whatever the tier. Names are as the
service gave them: print it with inertJson.
*/
export function seriesDocument(series: Series, range: TimeRange): SeriesDocument {
	const points = series.points.map(point => {
		const document: Record<string, Figures | null | string | number> = {at: iso(point.at), samples: point.count, state: point.state ?? null};
		for (const [index, field] of series.fields.entries()) {
			const figures = {min: point.min[index] ?? null, mean: point.mean[index] ?? null, max: point.max[index] ?? null, last: point.last[index] ?? null};
			document[field] = Object.values(figures).every(value => value === null) ? null : figures;
		}

		return document as PointDocument;
	});
	return {
		kind: series.kind,
		key: series.key,
		name: series.name,
		deleted: series.deletedAt !== undefined,
		deletedAt: series.deletedAt === undefined ? null : iso(series.deletedAt),
		tier: series.tier,
		step: series.step > 0 ? formatSpan(series.step) : null,
		stepMs: series.step,
		from: iso(range.from),
		to: iso(range.to),
		fields: series.fields,
		points,
	};
}

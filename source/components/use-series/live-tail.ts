import {fieldNames, type Sample} from '../../history/fields.js';
import type {Series, SeriesKind} from '../../history/history-types.js';
import type {SeriesAnswer} from './series-cache.js';

/**
A live answer with what the store holds now added as its newest point: rollups lag the present by
up to a minute (an hour for the hour tier), and a thing new since the answer has no series yet, so
the right edge of a live chart is the store's own figure. The cached answer is left as it is.
*/
export function withCurrent(answer: SeriesAnswer, kind: SeriesKind, current: ReadonlyMap<string, Sample>): SeriesAnswer {
	if (!answer.live || current.size === 0) {
		return answer;
	}

	const byKey = new Map(answer.byKey);
	for (const [key, {state, values}] of current) {
		const series: Series = byKey.get(key) ?? {
			kind,
			key,
			name: key,
			deletedAt: undefined,
			fields: fieldNames(kind, values.length),
			tier: 'raw',
			step: answer.pointMs,
			points: [],
		};
		const at = Math.max(answer.askedAt, (series.points.at(-1)?.at ?? 0) + 1);
		const fields = series.fields.length >= values.length ? series.fields : fieldNames(kind, values.length);
		byKey.set(key, {...series, fields, points: [...series.points, {at, count: 1, state, min: values, mean: values, max: values, last: values}]});
	}

	return {...answer, byKey};
}

import {useMemo} from 'react';
import {endpointStateSample, gpuStateSample, podStateSample, type Sample} from '../../history/fields.js';
import type {EndpointState, GpuState, PodState} from '../../store/types.js';
import {type ListPane, windowMs} from '../../view-state/view-state.js';
import {usePodtop, useServices, useView} from '../services.js';
import {useSeries} from '../use-series/index.js';
import {trendColumns, trendKinds} from './trend-cells.js';

/** The samples the store's rows on screen would be recorded as now. */
function currentSamples(pane: ListPane, byId: Readonly<Record<string, EndpointState | PodState | GpuState>>, keys: readonly string[]): Map<string, Sample> {
	const samples = new Map<string, Sample>();
	for (const key of keys) {
		const thing = byId[key];
		const sample = thing
			? pane === 'endpoints'
				? endpointStateSample(thing as EndpointState)
				: pane === 'pods'
					? podStateSample(thing as PodState)
					: gpuStateSample(thing as GpuState)
			: undefined;
		if (sample) {
			samples.set(key, sample);
		}
	}

	return samples;
}

/** A trend cell from history for a row and a column title; undefined leaves the row's own cell (the store's short history). */
export type TrendCell = (key: string, title: string) => string | undefined;

/**
The trend cells of a list pane's rows on screen, from history over the pane's window and `width`
cells wide: one request for all of them, asked again (at most every few seconds) as the pane is
polled. Undefined without history: the rows keep what the store remembers.
*/
export function useTrendCells(pane: ListPane, keys: readonly string[], width: number, titles: readonly string[]): TrendCell | undefined {
	const {glyphs} = useServices();
	const window = useView(state => state.windows[pane]);
	const at = useView(state => state.cursor);
	const changed = usePodtop(state => state[pane].byId);
	const wanted = titles.filter(title => trendColumns[pane].some(column => column.title === title)).join('\n');
	// What the store holds now is each row's newest point (rollups lag the present).
	const current = useMemo(() => currentSamples(pane, changed, keys), [pane, changed, keys]);
	const {answer} = useSeries(
		wanted !== '' && keys.length > 0 && width > 0 ? {kind: trendKinds[pane], keys, windowMs: windowMs[window], columns: width, at} : undefined,
		changed,
		current,
	);
	return useMemo(() => {
		if (!answer) {
			return undefined;
		}

		const drawn = new Map<string, string | undefined>();
		return (key: string, title: string) => {
			const id = `${key}\n${title}`;
			if (!drawn.has(id)) {
				const series = answer.byKey.get(key);
				const column = wanted.split('\n').includes(title) ? trendColumns[pane].find(each => each.title === title) : undefined;
				drawn.set(id, series && column ? column.cell(series, answer, glyphs) : undefined);
			}

			return drawn.get(id);
		};
	}, [answer, glyphs, pane, wanted]);
}

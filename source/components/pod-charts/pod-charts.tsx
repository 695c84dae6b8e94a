import {useMemo} from 'react';
import {formatAxisValue} from '../../format/axis-values.js';
import {foldColumns, type Columns, lastKnown} from '../../format/chart-columns.js';
import {gridEnd} from '../../format/chart-grid.js';
import {podSample} from '../../history/fields.js';
import type {PodDetail} from '../../store/types.js';
import {windowMs} from '../../view-state/view-state.js';
import {chartLayout, ChartPanel, chartStyle, plotColumns, type PanelChart, type ToneLayer} from '../chart/index.js';
import {usePodtop, useServices, useView} from '../services.js';
import {useSeries} from '../use-series/index.js';

/** At most this many GPUs get a chart each (a pod has up to 8). */
export const maxGpuCharts = 8;

/** Where a pod's charts go: one per GPU and one for the container, side by side from 30 columns each. */
export const podChartLayout = (gpus: number, width: number, height: number) =>
	chartLayout(Math.min(gpus, maxGpuCharts) + 1, width, height, {minWidth: 30, maxPlotRows: 12});

type Pair = {readonly first: Columns; readonly second: Columns};

const percentRange = {min: 0, max: 100};

/** A chart of two percentages: the first as an area (with its min–max band from rollups), the second as a line. */
function pairChart(id: string, title: string, names: readonly [string, string], {first, second}: Pair, band: boolean, colorless: boolean): PanelChart {
	const layers: ToneLayer[] = [
		{kind: 'line', values: second.mean, tone: 'warn'},
		{kind: 'area', values: first.mean, tone: 'good'},
		...(band ? [{kind: 'band', values: first.max, bottom: first.min, tone: 'good', dim: true} as const] : []),
	];
	return {
		id,
		title,
		legend: [
			{text: `${names[0]} ${formatAxisValue(lastKnown(first.last), 'percent')}`, tone: 'good'},
			{text: `${names[1]} ${formatAxisValue(lastKnown(second.last), 'percent')}${colorless ? ' (line)' : ''}`, tone: 'warn'},
		],
		layers,
		range: [first.mean, second.mean].some(values => values.some(value => value !== null)) ? percentRange : undefined,
		unit: 'percent',
	};
}

const memoryColumns = (values: readonly number[], columns: number): Columns => {
	const recent: Array<number | null> = values.slice(-columns);
	const padded = [...Array.from({length: columns - recent.length}, () => null), ...recent];
	return {mean: padded, min: padded, max: padded, last: padded, lastAt: padded.map(() => null)};
};

const noColumns = (columns: number): Columns => memoryColumns([], columns);

type Props = {readonly podId: string; readonly gpus: number; readonly width: number; readonly height: number};

/**
A pod's history over its window: each GPU's utilisation (area) and memory (line), and the
container's CPU and memory, 0–100 %. Read from history; without it, the GPUs' recent polls the
store keeps while the details are open.
*/
export function PodCharts({podId, gpus, width, height}: Props) {
	const {glyphs, colors} = useServices();
	const window = useView(state => state.windows.pod);
	const at = useView(state => state.cursor);
	const detail = usePodtop(state => (state.podDetail?.podId === podId ? state.podDetail : undefined));
	const polled = usePodtop(state => state.pods.byId[podId]);
	const layout = podChartLayout(gpus, width, height);
	const columns = plotColumns(layout.cellWidth, chartStyle(glyphs));
	const latest = detail?.record ?? polled?.record;
	const current = useMemo(() => (latest ? new Map([[podId, podSample(latest)]]) : undefined), [latest, podId]);
	const {answer, recorded, waiting} = useSeries(
		layout.shown > 0 ? {kind: 'pod', keys: [podId], windowMs: windowMs[window], columns, at} : undefined,
		latest,
		current,
		{atOnce: true},
	);
	const drawn = useMemo(() => {
		const shown = Math.min(gpus, maxGpuCharts);
		if (!recorded) {
			const history: PodDetail['gpuHistory'] = detail?.gpuHistory ?? [];
			return {
				axis: `the last ${Math.max(0, ...history.map(each => each.util.length))} polls (history is off)`,
				band: false,
				gpus: Array.from({length: shown}, (_, index) => ({
					first: memoryColumns(history[index]?.util ?? [], columns),
					second: memoryColumns(history[index]?.memory ?? [], columns),
				})),
				container: {first: noColumns(columns), second: noColumns(columns)},
			};
		}

		if (!answer) {
			return undefined;
		}

		const {grid, holdMs, pointMs} = answer;
		const series = answer.byKey.get(podId);
		const fold = (field: string) => foldColumns(series?.points ?? [], grid, series ? series.fields.indexOf(field) : -1, holdMs);
		return {
			axis: {from: grid.start, to: gridEnd(grid)},
			band: pointMs >= 60_000,
			gpus: Array.from({length: shown}, (_, index) => ({first: fold(`gpu${index}.util`), second: fold(`gpu${index}.memory`)})),
			container: {first: fold('cpuPercent'), second: fold('memoryPercent')},
		};
	}, [recorded, answer, detail, podId, gpus, columns]);
	if (layout.shown === 0) {
		return null;
	}

	const colorless = colors.accent === undefined;
	// Until the first answer comes, the charts' frames: nothing moves when it does.
	const shown = drawn ?? {
		axis: '',
		band: false,
		gpus: Array.from({length: Math.min(gpus, maxGpuCharts)}, () => ({first: noColumns(columns), second: noColumns(columns)})),
		container: {first: noColumns(columns), second: noColumns(columns)},
	};
	const charts = [
		...shown.gpus.map((pair, index) => pairChart(`gpu${index}`, `GPU ${index}`, ['util', 'memory'], pair, shown.band, colorless)),
		pairChart('container', 'container', ['CPU', 'memory'], shown.container, shown.band, colorless),
	].map(chart => (drawn ? chart : {...chart, empty: `reading ${window} of history…`}));
	if (!recorded) {
		charts[charts.length - 1] = {...charts.at(-1)!, empty: 'recorded with history only'};
	}

	return <ChartPanel charts={charts} layout={layout} axis={shown.axis} note={drawn && waiting ? {text: `reading ${window}…`, tone: 'muted'} : undefined} />;
}

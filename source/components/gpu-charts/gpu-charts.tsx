import {useMemo} from 'react';
import {formatAxisValue, valueRange} from '../../format/axis-values.js';
import {foldColumns, foldStates, lastKnown} from '../../format/chart-columns.js';
import {type ChartGrid, gridEnd} from '../../format/chart-grid.js';
import {sanitizeLine} from '../../format/sanitize.js';
import {gpuStateSample} from '../../history/fields.js';
import type {Series} from '../../history/history-types.js';
import {stockRank} from '../../rows/gpu-rows.js';
import type {StockStatus} from '../../store/types.js';
import {windowMs} from '../../view-state/view-state.js';
import {chartLayout, ChartPanel, chartStyle, plotColumns, type PanelChart, type ToneLayer} from '../chart/index.js';
import {usePodtop, useServices, useView} from '../services.js';
import {useSeries} from '../use-series/index.js';
import type {Tone} from '../../rows/row.js';

/** The four charts of a GPU type's details, two by two (one above the other when narrow). */
export const gpuChartLayout = (width: number, height: number) => chartLayout(4, width, height, {maxPerRow: 2});

type Price = {readonly field: string; readonly name: string; readonly tone: Tone};

const onDemand: readonly Price[] = [
	{field: 'securePrice', name: 'secure', tone: 'accent'},
	{field: 'communityPrice', name: 'community', tone: 'good'},
	{field: 'lowestPrice', name: 'lowest', tone: 'warn'},
];
const spot: readonly Price[] = [
	{field: 'secureSpotPrice', name: 'secure', tone: 'accent'},
	{field: 'communitySpotPrice', name: 'community', tone: 'good'},
	{field: 'minimumBid', name: 'min bid', tone: 'warn'},
];

/** Stock as a level: None 0, Low 1, Medium 2, High 3; unknown is a gap. */
const stockLevel = (state: string | undefined): number | null => {
	const rank = stockRank[(state ?? 'Unknown') as StockStatus];
	return rank === undefined || rank < 0 ? null : rank;
};

/** The four charts of a GPU type from its series (none yet: empty frames) over the grid; the bar charts have `bars` columns. */
function gpuCharts(series: Series | undefined, grid: ChartGrid, holdMs: number, bars: number): PanelChart[] {
	const points = series?.points ?? [];
	const fold = (field: string) => foldColumns(points, grid, series ? series.fields.indexOf(field) : -1, holdMs);
	const barGrid = {start: grid.start, columnMs: (grid.columnMs * grid.columns) / bars, columns: bars};
	const prices = (id: string, title: string, which: readonly Price[]): PanelChart => {
		const folded = which.map(price => fold(price.field));
		const layers: ToneLayer[] = which.map((price, index) => ({kind: 'line', values: folded[index]!.mean, tone: price.tone}));
		return {
			id,
			title,
			// The newest price, not its column's mean: the legend says what the details above it say (a mean of $1.69 and $1.67 read $1.68).
			legend: which.map((price, index) => ({text: `${price.name} ${formatAxisValue(lastKnown(folded[index]!.last), 'dollars')}`, tone: price.tone})),
			layers,
			range: valueRange(
				folded.map(columns => columns.mean),
				{fromZero: false},
			),
			unit: 'dollars',
		};
	};

	const states = foldStates(points, barGrid, holdMs);
	const levels = states.map(state => stockLevel(state));
	const free = foldColumns(points, barGrid, series ? series.fields.indexOf('available') : -1, holdMs);
	return [
		prices('on-demand', 'on demand $/h', onDemand),
		prices('spot', 'spot $/h', spot),
		{
			id: 'stock',
			title: 'stock',
			legend: [{text: `now ${sanitizeLine(states.findLast(state => state !== undefined) ?? '–')}`, tone: 'accent'}],
			layers: [{kind: 'area', values: levels, tone: 'accent'}],
			range: levels.some(level => level !== null) ? {min: 0, max: 3} : undefined,
			unit: 'count',
			bars: true,
			labels: {top: 'High', bottom: 'None'},
		},
		{
			id: 'free',
			title: 'free GPUs',
			legend: [{text: `now ${formatAxisValue(lastKnown(free.last), 'count')}`, tone: 'good'}],
			layers: [{kind: 'area', values: free.mean, tone: 'good'}],
			range: valueRange([free.mean], {whole: true}),
			unit: 'count',
			bars: true,
		},
	];
}

type Props = {readonly gpuId: string; readonly width: number; readonly height: number};

/**
A GPU type's market over its window: on-demand prices (secure, community, the lowest), spot prices
(secure, community, the minimum bid), its stock (None to High) and how many GPUs were free.
*/
export function GpuCharts({gpuId, width, height}: Props) {
	const {glyphs} = useServices();
	const window = useView(state => state.windows.gpu);
	const at = useView(state => state.cursor);
	const polled = usePodtop(state => state.gpus.byId[gpuId]);
	const layout = gpuChartLayout(width, height);
	const columns = plotColumns(layout.cellWidth, chartStyle(glyphs));
	const bars = plotColumns(layout.cellWidth, chartStyle(glyphs, true));
	const current = useMemo(() => (polled ? new Map([[gpuId, gpuStateSample(polled)]]) : undefined), [polled, gpuId]);
	// One request at braille's resolution; the bar charts fold it into their wider columns.
	const {answer, recorded, waiting} = useSeries(
		layout.shown > 0 ? {kind: 'gpu', keys: [gpuId], windowMs: windowMs[window], columns, at} : undefined,
		polled,
		current,
		{atOnce: true},
	);
	const charts = useMemo(
		() => (answer ? gpuCharts(answer.byKey.get(gpuId), answer.grid, answer.holdMs, bars) : gpuCharts(undefined, {start: 0, columnMs: 1, columns}, 0, bars)),
		[answer, gpuId, bars, columns],
	);
	if (layout.shown === 0 || !recorded) {
		return null;
	}

	if (!answer) {
		// The charts' frames while the first answer is on its way: nothing moves when it comes.
		return <ChartPanel charts={charts.map(chart => ({...chart, empty: `reading ${window} of history…`}))} layout={layout} axis='' />;
	}

	return (
		<ChartPanel
			charts={charts}
			layout={layout}
			axis={{from: answer.grid.start, to: gridEnd(answer.grid)}}
			note={waiting ? {text: `reading ${window}…`, tone: 'muted'} : undefined}
		/>
	);
}

import {useMemo} from 'react';
import {formatAxisValue, valueRange} from '../../format/axis-values.js';
import {lastKnown} from '../../format/chart-columns.js';
import {chartGrid, gridEnd} from '../../format/chart-grid.js';
import {formatPercent} from '../../format/numbers.js';
import {endpointStateSample} from '../../history/fields.js';
import type {Tone} from '../../rows/row.js';
import {windowMs} from '../../view-state/view-state.js';
import {chartLayout, ChartPanel, chartStyle, plotColumns, type PanelChart, type ToneLayer} from '../chart/index.js';
import {usePodtop, useServices, useView} from '../services.js';
import {useSeries} from '../use-series/index.js';
import {endpointColumns, memoryPoints, workerStates, type EndpointColumns, type WorkerState} from './endpoint-series.js';

/** The four charts of an endpoint's details, two by two (one above the other when narrow); the last give way when room runs out. */
export const endpointChartLayout = (width: number, height: number) => chartLayout(4, width, height, {maxPerRow: 2});

const workerTones: Readonly<Record<WorkerState, Tone>> = {running: 'good', idle: 'muted', initializing: 'accent', throttled: 'warn', unhealthy: 'bad'};
const workerWords: Readonly<Record<WorkerState, string>> = {running: 'run', idle: 'idle', initializing: 'init', throttled: 'thr', unhealthy: 'unh'};

/** In-memory samples are at most a poll apart (a minute when hidden). */
const memoryHoldMs = 90_000;

/** The four charts of the details, from the endpoint's columns. */
function charts(data: EndpointColumns, colorless: boolean, band: boolean): PanelChart[] {
	const {inQueue, inProgress, workers, finished, failed, failureShare, finishedMean, failedMean} = data;
	const queueLayers: ToneLayer[] = [
		{kind: 'line', values: inProgress.mean, tone: 'good'},
		{kind: 'area', values: inQueue.mean, tone: 'accent'},
		...(band ? [{kind: 'band', values: inQueue.max, bottom: inQueue.min, tone: 'accent', dim: true} as const] : []),
	];
	// Stacked from the bottom: running, idle, initializing, throttled, unhealthy; a cell shows the
	// most troubled state in it, so one unhealthy worker is never hidden under the running ones.
	const totals: Array<Array<number | null>> = [];
	for (const [index, state] of workerStates.entries()) {
		const below = totals[index - 1];
		// A state not known (the store keeps only the running workers in memory) adds nothing to the stack.
		totals.push(
			workers[state].mean.map((value, column) => {
				const under = below ? (below[column] ?? null) : 0;
				return value === null ? (index === 0 ? null : under) : value + (under ?? 0);
			}),
		);
	}

	const workerLayers: ToneLayer[] = workerStates
		.map((state, index): ToneLayer => ({kind: 'stack', values: totals[index]!, bottom: index === 0 ? undefined : totals[index - 1], tone: workerTones[state]}))
		.reverse();
	return [
		{
			id: 'queue',
			title: 'queue',
			legend: [
				{text: `in queue ${formatAxisValue(lastKnown(inQueue.last), 'count')}`, tone: 'accent'},
				{text: `in progress ${formatAxisValue(lastKnown(inProgress.last), 'count')}${colorless ? ' (line)' : ''}`, tone: 'good'},
			],
			layers: queueLayers,
			range: valueRange([band ? inQueue.max : inQueue.mean, inProgress.mean], {whole: true}),
			unit: 'count',
		},
		{
			id: 'workers',
			title: 'workers',
			legend: workerStates.map(state => ({
				text: `${workerWords[state]} ${formatAxisValue(lastKnown(workers[state].last), 'count')}`,
				tone: workerTones[state],
			})),
			layers: workerLayers,
			range: valueRange([totals.at(-1)!], {whole: true}),
			unit: 'count',
		},
		{
			id: 'throughput',
			title: 'jobs finished',
			legend: [{text: `mean ${formatAxisValue(finishedMean, 'rate')}`, tone: 'good'}],
			layers: [{kind: 'area', values: finished, tone: 'good'}],
			range: valueRange([finished]),
			unit: 'rate',
		},
		{
			id: 'failures',
			title: 'failed',
			legend: [
				{text: `mean ${formatAxisValue(failedMean, 'rate')}`, tone: 'bad'},
				{text: `${formatPercent(failureShare, failureShare !== undefined && failureShare < 0.1 ? 1 : 0)} of finished`},
			],
			layers: [{kind: 'area', values: failed, tone: 'bad'}],
			range: valueRange([failed]),
			unit: 'rate',
		},
	];
}

type Props = {readonly endpointId: string; readonly width: number; readonly height: number};

/**
An endpoint's history over its window, ending at the time cursor or now: the queue (in queue, in
progress), workers by state stacked, jobs finished and failed per minute; min and max on the left,
time under them. Read from history; without it, from the ten minutes the store keeps.
*/
export function EndpointCharts({endpointId, width, height}: Props) {
	const {glyphs, colors} = useServices();
	const window = useView(state => state.windows.endpoint);
	const at = useView(state => state.cursor);
	const endpoint = usePodtop(state => state.endpoints.byId[endpointId]);
	const memory = endpoint?.history;
	// What the store holds now is the newest point of a live chart (rollups lag the present).
	const current = useMemo(() => {
		const sample = endpoint ? endpointStateSample(endpoint) : undefined;
		return sample ? new Map([[endpointId, sample]]) : undefined;
	}, [endpoint, endpointId]);
	const layout = endpointChartLayout(width, height);
	const columns = plotColumns(layout.cellWidth, chartStyle(glyphs));
	const span = windowMs[window];
	const {answer, recorded, error, waiting} = useSeries(
		layout.shown > 0 ? {kind: 'endpoint', keys: [endpointId], windowMs: span, columns, at} : undefined,
		endpoint?.healthAt,
		current,
		{atOnce: true},
	);
	const drawn = useMemo(() => {
		if (recorded) {
			if (!answer) {
				return undefined;
			}

			const series = answer.byKey.get(endpointId);
			return {
				grid: answer.grid,
				band: answer.pointMs >= 60_000,
				data: endpointColumns(series?.points ?? [], series?.fields ?? [], answer.grid, answer.holdMs, answer.pointMs, answer.live ? answer.askedAt : at),
			};
		}

		// The store keeps the present only: in the past there is nothing in memory to draw.
		const samples = at === undefined ? (memory ?? []) : [];
		const end = at ?? samples.at(-1)?.at ?? 0;
		const grid = chartGrid(span, columns, end);
		const {points, fields} = memoryPoints(samples);
		return {grid, band: false, data: endpointColumns(points, fields, grid, memoryHoldMs, 0, end)};
	}, [recorded, answer, endpointId, span, columns, at, memory]);
	if (layout.shown === 0) {
		return null;
	}

	const colorless = colors.accent === undefined;
	if (!drawn) {
		// The charts' frames while the first answer is on its way: nothing moves when it comes.
		const nothing = endpointColumns([], [], {start: 0, columnMs: 1, columns}, 0);
		return <ChartPanel charts={charts(nothing, colorless, false).map(chart => ({...chart, empty: `reading ${window} of history…`}))} layout={layout} axis='' />;
	}

	// No time at all (nothing in memory yet): no axis of 1970.
	const axis = drawn.grid.start > 0 ? {from: drawn.grid.start, to: gridEnd(drawn.grid)} : undefined;
	const note = error ? ({text: `history: ${error}`, tone: 'bad'} as const) : waiting ? ({text: `reading ${window}…`, tone: 'muted'} as const) : undefined;
	return <ChartPanel charts={charts(drawn.data, colorless, drawn.band)} layout={layout} axis={axis} note={note} />;
}

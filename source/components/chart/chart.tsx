import {Box, Text} from 'ink';
import {formatAxisValue, type ValueRange, type ValueUnit} from '../../format/axis-values.js';
import {cellDots, cellRuns, drawChart, type ChartLayer, type ChartStyle} from '../../format/chart-raster.js';
import {fit} from '../../format/fit.js';
import type {Glyphs} from '../../format/glyphs.js';
import {timeAxis} from '../../format/time-axis.js';
import type {Tone} from '../../rows/row.js';
import {useServices} from '../services.js';

/** Columns the value labels take on the left of the plot (`$0.248`, `1.2k/m`, `100%` and a space). */
export const gutterWidth = 7;

/** A layer as drawn: its values, and the tone (colour) and dimness of its cells. */
export type ToneLayer = ChartLayer & {readonly tone?: Tone; readonly dim?: boolean};

/** A word after the chart's title: what a layer is, and its figure now. */
export type LegendItem = {readonly text: string; readonly tone?: Tone};

const noLegend: readonly LegendItem[] = [];

/** How a chart of `width` columns is drawn with these glyphs: braille lines, block bars, or ASCII. */
export function chartStyle(glyphs: Glyphs, bars = false): ChartStyle {
	return glyphs.charts === 'ascii' ? 'ascii' : bars ? 'blocks' : 'braille';
}

/** How many values across a chart `width` columns wide draws (braille: two a cell). */
export const plotColumns = (width: number, style: ChartStyle) => Math.max(1, width - gutterWidth) * cellDots[style].x;

/** Lines a chart takes: its title, its plot and, when it has one, its time axis. */
export const chartLines = (plotRows: number, axis: boolean) => 1 + plotRows + (axis ? 1 : 0);

export type ChartProps = {
	readonly title: string;
	readonly legend?: readonly LegendItem[];
	readonly layers: readonly ToneLayer[];
	readonly width: number;
	/** Rows of the plot. */
	readonly height: number;
	/** What the bottom and top rows stand for; undefined when nothing is known in the window. */
	readonly range: ValueRange | undefined;
	readonly unit: ValueUnit;
	/** The line under the plot: a time axis from `from` to `to`, or words (in-memory charts have no times). */
	readonly axis?: {readonly from: number; readonly to: number} | string;
	readonly bars?: boolean;
	/** Said in the plot when it has nothing to draw. */
	readonly empty?: string;
	/** Words for the top and bottom of the value axis instead of the range's numbers (stock: High, None). */
	readonly labels?: {readonly top: string; readonly bottom: string};
};

/**
A chart as btop draws them: braille dots (or block bars, or ASCII), the top and bottom values on the
left, a time axis under it. Layers take their tone's colour; with colours off the legend still says
which is which and every figure is in words.
*/
export function Chart({
	title,
	legend = noLegend,
	layers,
	width,
	height,
	range,
	unit,
	axis,
	bars = false,
	empty = 'nothing recorded in this window',
	labels,
}: ChartProps) {
	const {colors, glyphs} = useServices();
	const style = chartStyle(glyphs, bars);
	const plot = Math.max(1, width - gutterWidth);
	const rows = range ? drawChart({layers, style, width: plot, height, min: range.min, max: range.max}) : [];
	const label = (row: number) => {
		if (!range) {
			return '';
		}

		if (row === 0) {
			return labels?.top ?? formatAxisValue(range.max, unit);
		}

		return row === height - 1 ? (labels?.bottom ?? formatAxisValue(range.min, unit)) : '';
	};

	const axisText = axis === undefined ? undefined : typeof axis === 'string' ? fit(axis, plot) : timeAxis(axis.from, axis.to, plot);
	return (
		<Box flexDirection='column' width={width} height={chartLines(height, axis !== undefined)}>
			<Text wrap='truncate'>
				<Text bold>{title}</Text>
				{legend.map(item => (
					<Text key={item.text} color={item.tone ? colors[item.tone] : undefined}>{`  ${item.text}`}</Text>
				))}
			</Text>
			{Array.from({length: height}, (_, row) => (
				// A row of blanks still takes its line: Ink gives an empty text no height.
				<Box key={row} height={1}>
					<Text wrap='truncate'>
						<Text dimColor>{`${fit(label(row), gutterWidth - 1, 'right')} `}</Text>
						{range ? (
							cellRuns(rows[row] ?? []).map((run, index) => {
								const layer = run.layer === undefined ? undefined : layers[run.layer];
								return (
									<Text key={index} color={layer?.tone ? colors[layer.tone] : undefined} dimColor={layer?.dim}>
										{run.text}
									</Text>
								);
							})
						) : (
							<Text dimColor>{row === Math.floor((height - 1) / 2) ? fit(empty, plot) : ''}</Text>
						)}
					</Text>
				</Box>
			))}
			{axisText === undefined ? null : (
				<Text dimColor wrap='truncate'>
					{`${' '.repeat(gutterWidth)}${axisText}`}
				</Text>
			)}
		</Box>
	);
}

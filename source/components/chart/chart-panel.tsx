import {Box} from 'ink';
import {Chart, type ChartProps, type LegendItem} from './chart.js';
import {chartGap, type ChartLayout} from './chart-layout.js';

/** A chart of a panel: what it draws, without its size (the panel's layout gives that). */
export type PanelChart = Omit<ChartProps, 'width' | 'height' | 'axis'> & {readonly id: string};

type Props = {
	readonly charts: readonly PanelChart[];
	readonly layout: ChartLayout;
	/** The time axis every chart shares, drawn under the last row; or words where there are no times. */
	readonly axis: ChartProps['axis'];
	/** Said after the first chart's legend: another window on its way (the charts show the last one meanwhile), a failure. */
	readonly note?: LegendItem;
};

/** Charts side by side and in rows as the layout says, the shared time axis under the last row. */
export function ChartPanel({charts, layout, axis, note}: Props) {
	const shown = charts.slice(0, layout.shown).map((chart, index) => (index === 0 && note ? {...chart, legend: [...(chart.legend ?? []), note]} : chart));
	const rows: PanelChart[][] = [];
	for (let index = 0; index < shown.length; index += layout.perRow) {
		rows.push(shown.slice(index, index + layout.perRow));
	}

	return (
		<Box flexDirection='column' height={layout.lines}>
			{rows.map((row, rowIndex) => (
				<Box key={row.map(chart => chart.id).join(' ')} flexDirection='row'>
					{row.map((chart, index) => (
						<Box key={chart.id} marginLeft={index === 0 ? 0 : chartGap}>
							<Chart {...chart} width={layout.cellWidth} height={layout.plotRows} axis={rowIndex === rows.length - 1 ? axis : undefined} />
						</Box>
					))}
				</Box>
			))}
		</Box>
	);
}

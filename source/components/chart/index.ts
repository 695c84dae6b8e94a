export {Chart, chartLines, chartStyle, gutterWidth, plotColumns, type ChartProps, type LegendItem, type ToneLayer} from './chart.js';
export {chartGap, chartLayout, type ChartLayout} from './chart-layout.js';
export {ChartPanel, type PanelChart} from './chart-panel.js';

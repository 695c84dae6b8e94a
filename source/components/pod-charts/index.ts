export {maxGpuCharts, PodCharts, podChartLayout} from './pod-charts.js';

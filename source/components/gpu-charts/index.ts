export {GpuCharts, gpuChartLayout} from './gpu-charts.js';

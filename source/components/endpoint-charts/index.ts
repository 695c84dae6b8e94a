export {EndpointCharts, endpointChartLayout} from './endpoint-charts.js';
export {endpointColumns, memoryPoints, workerStates, type EndpointColumns, type WorkerState} from './endpoint-series.js';

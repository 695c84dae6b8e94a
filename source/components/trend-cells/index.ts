export {trendColumns, trendKinds, type TrendColumn} from './trend-cells.js';
export {useTrendCells, type TrendCell} from './use-trend-cells.js';

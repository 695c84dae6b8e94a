export {refreshMs, requestKey, seriesCache, type SeriesAnswer, type SeriesRequest} from './series-cache.js';
export {useRecorded} from './use-recorded.js';
export {useSeries, type SeriesState} from './use-series.js';

import type {HistoryReader} from './history-types.js';

export type PrometheusReaderOptions = {
	/** The Prometheus (or Thanos, Mimir) base URL; credentials in it are never shown. */
	readonly url: string;
	readonly timeoutMs?: number;
};

/** History read from a Prometheus that scrapes `podtop export`, by PromQL range and instant queries. */
export function createPrometheusReader({url}: PrometheusReaderOptions): HistoryReader {
	const unavailable = async (): Promise<never> => {
		throw new Error(`reading history from Prometheus (${new URL(url).host}) is not built yet`);
	};

	return {
		kind: 'prometheus',
		series: unavailable,
		stateAt: unavailable,
		events: unavailable,
		things: unavailable,
		span: unavailable,
		info: unavailable,
		async close() {},
	};
}

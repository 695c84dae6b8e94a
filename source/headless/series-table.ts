import {formatMoment, formatRange, sameDay} from '../format/moment-text.js';
import {formatDollarsPerHour, formatPrice} from '../format/numbers.js';
import {textTable} from '../format/text-table.js';
import type {Series, SeriesKind, SeriesPoint} from '../history/history-types.js';
import {formatSpan} from '../lib/time-spec.js';
import {describeThing} from './find-thing.js';
import type {TimeRange} from './series-json.js';

type Stat = 'mean' | 'last' | 'max';

/** A column of the table: what it shows of a point, and how soon it goes when the terminal is narrow (higher goes first). */
type Column = {readonly title: string; readonly priority: number; readonly right: boolean; readonly cell: (point: SeriesPoint) => string};

const plain = (value: number | undefined) => (value === undefined ? '–' : Number.isInteger(value) ? String(value) : value.toFixed(1));
const percent = (value: number | undefined) => (value === undefined ? '–' : String(Math.round(value)));

function columnsOf(series: Series): Column[] {
	const merged = series.step > 0;
	const at = (field: string, stat: Stat, point: SeriesPoint): number | undefined => {
		const index = series.fields.indexOf(field);
		return index === -1 ? undefined : (point[stat][index] ?? undefined);
	};

	const number = (title: string, priority: number, field: string, stat: Stat = 'mean', format = plain): Column => ({
		title,
		priority,
		right: true,
		cell: point => format(at(field, stat, point)),
	});
	const state = (title: string): Column => ({title, priority: 1, right: false, cell: point => point.state ?? '–'});
	const gpuFields = (suffix: string) => series.fields.filter(field => field.endsWith(suffix));
	const meanOf = (fields: readonly string[]) => (point: SeriesPoint) => {
		const values = fields.flatMap(field => at(field, 'mean', point) ?? []);
		return values.length === 0 ? '–' : percent(values.reduce((sum, value) => sum + value, 0) / values.length);
	};

	const byKind: Record<SeriesKind, () => Column[]> = {
		endpoint: () => [
			number('QUEUE', 1, 'inQueue'),
			...(merged ? [number('QMAX', 13, 'inQueue', 'max')] : []),
			number('PROG', 2, 'inProgress'),
			number('DONE', 4, 'completed', 'last'),
			number('FAILED', 5, 'failed', 'last'),
			number('RETRIED', 11, 'retried', 'last'),
			number('RUN', 3, 'running'),
			number('IDLE', 6, 'idle'),
			number('INIT', 7, 'initializing'),
			number('READY', 12, 'ready'),
			number('THROT', 8, 'throttled'),
			number('UNHLT', 9, 'unhealthy'),
			{title: 'MIN-MAX', priority: 10, right: true, cell: point => `${plain(at('workersMin', 'last', point))}-${plain(at('workersMax', 'last', point))}`},
		],
		pod: () => [
			state('STATUS'),
			number('$/H', 2, 'costPerHr', 'last', value => formatDollarsPerHour(value)),
			{title: 'GPU%', priority: 1, right: true, cell: meanOf(gpuFields('.util'))},
			{title: 'VRAM%', priority: 3, right: true, cell: meanOf(gpuFields('.memory'))},
			number('CPU%', 4, 'cpuPercent', 'mean', percent),
			number('MEM%', 5, 'memoryPercent', 'mean', percent),
			number('GPUS', 6, 'gpuCount', 'last'),
			...gpuFields('.util').flatMap((field, gpu) => [
				number(`G${gpu}%`, 7 + gpu * 2, field, 'mean', percent),
				number(`G${gpu} VRAM%`, 8 + gpu * 2, `gpu${gpu}.memory`, 'mean', percent),
			]),
		],
		gpu: () => [
			state('STOCK'),
			number('FREE', 2, 'available', 'last'),
			number('SECURE', 3, 'securePrice', 'last', formatPrice),
			number('COMMUNITY', 4, 'communityPrice', 'last', formatPrice),
			number('LOWEST', 5, 'lowestPrice', 'last', formatPrice),
			number('SPOT', 6, 'secureSpotPrice', 'last', formatPrice),
			number('COMM SPOT', 7, 'communitySpotPrice', 'last', formatPrice),
			number('MIN BID', 8, 'minimumBid', 'last', formatPrice),
			number('1W', 9, 'oneWeekPrice', 'last', formatPrice),
			number('1M', 10, 'oneMonthPrice', 'last', formatPrice),
			number('3M', 11, 'threeMonthPrice', 'last', formatPrice),
			number('6M', 12, 'sixMonthPrice', 'last', formatPrice),
		],
		account: () => [
			number('COST', 1, 'runningCostPerHr', 'mean', value => formatDollarsPerHour(value === undefined ? undefined : Math.round(value * 100) / 100)),
			number('RUNNING', 2, 'runningPods'),
			number('PODS', 3, 'pods'),
			number('ENDPOINTS', 4, 'endpoints'),
			number('ALERTS', 5, 'firingAlerts'),
		],
	};
	return byKind[series.kind]();
}

const rows = (series: Series) => `${series.points.length} ${series.points.length === 1 ? 'row' : 'rows'}`;

/** What the rows are, in words: raw samples as recorded, or merged points and which figure each column gives. */
function describeTier(series: Series): string {
	if (series.step === 0) {
		return `raw samples as recorded (each change, and everything once a minute), ${rows(series)}`;
	}

	const counters = series.kind === 'endpoint' ? '; DONE, FAILED, RETRIED the last value' : series.kind === 'gpu' ? '; prices the last value' : '';
	return `${formatSpan(series.step)} points from the ${series.tier} tier, ${rows(series)}: means${counters}`;
}

/**
A series as a table for people: a line saying what and when, then a row per point with the time
and the figures worth reading; the lowest-priority columns go until it fits `width` (a pipe gets
them all).
*/
export function seriesTable(series: Series, range: TimeRange, width = Number.POSITIVE_INFINITY): string {
	const oneDay = sameDay(range.from, range.to);
	const time: Column = {
		title: 'TIME',
		priority: 0,
		right: false,
		cell: point => formatMoment(point.at, {dayShown: !oneDay, seconds: series.step < 60_000}),
	};
	let columns = [time, ...columnsOf(series)];
	const render = () =>
		textTable(
			columns.map(column => column.title),
			series.points.map(point => columns.map(column => column.cell(point))),
			new Set(columns.flatMap((column, index) => (column.right ? [index] : []))),
		);
	let table = render();
	while (columns.length > 2 && Math.max(...table.split('\n').map(line => [...line].length)) > width) {
		const dropped = columns.reduce((last, column) => (column.priority > last.priority ? column : last));
		columns = columns.filter(column => column !== dropped);
		table = render();
	}

	const thing = describeThing({...series, firstAt: 0, lastAt: 0});
	return `${thing} · ${formatRange(range.from, range.to)} · ${describeTier(series)}\n\n${table}\n`;
}

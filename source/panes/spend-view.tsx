import {Box, Text} from 'ink';
import {useEffect, useMemo} from 'react';
import {useShallow} from 'zustand/react/shallow';
import {Chart, chartStyle, plotColumns, type ToneLayer} from '../components/chart/index.js';
import {useKeyHints} from '../components/key-hints.js';
import {usePodtop, useServices, useView} from '../components/services.js';
import {Table} from '../components/table.js';
import {formatMoment} from '../format/moment-text.js';
import {formatPrice} from '../format/numbers.js';
import {sanitizeLine} from '../format/sanitize.js';
import {podCost} from '../store/pod-figures.js';
import {contentWidths, type Column, type Row} from '../rows/row.js';
import {chartBuckets, gutterDollars, spendFigures, spendGroups, spendWindowBuckets, stackedColumns} from '../rows/spend-figures.js';
import {useSpend, type ResourceSpendLine} from './use-spend.js';

type Props = {readonly width: number; readonly height: number};

const columns: readonly Column[] = [
	{title: 'KIND', width: 8},
	{title: 'NAME', width: 60, flex: true},
	{title: 'SPENT', width: 10, align: 'right'},
	{title: '$/H NOW', width: 8, align: 'right'},
];
/** In the past, each resource's $/h is its last bucket closed before the moment. */
const pastColumns: readonly Column[] = columns.with(3, {title: '$/H THEN', width: 8, align: 'right'});

const kindWords = {pod: 'pod', endpoint: 'endpoint', volume: 'volume'} as const;

/** Lines above the chart (title, two of figures) and the fewest the table keeps (its header and three rows). */
const figureLines = 3;
const tableMinLines = 4;

/** The name a resource is listed by: its name, sanitised; one the fleet no longer lists (or a volume, which it never lists) says so with its id. */
const resourceName = (line: ResourceSpendLine) => (line.name ? sanitizeLine(line.name) : `(unnamed ${kindWords[line.kind]} ${sanitizeLine(line.id)})`);

/**
`4`, `:spend`: the account's bills (REST v2) per bucket stacked by category over 24h, 7d, 30d or 1y; today, yesterday,
the same day last week, month to date and its forecast; the costliest pods, endpoints and volumes over the window, Enter
opens a pod or an endpoint. Read while shown, once per billing route per 5 minutes. With the time cursor in the past,
the window ends at its moment: the bills up to then, the day figures of its day, each resource's $/h as billed then.
*/
export function SpendView({width, height}: Props) {
	const {colors, glyphs, view} = useServices();
	const {window, index, cursor} = useView(useShallow(state => ({window: state.spend.window, index: state.spend.index, cursor: state.cursor})));
	const {pods, balance} = usePodtop(useShallow(state => ({pods: state.pods, balance: state.balance})));
	const hints = useKeyHints('spend', ['spend.open', 'back']);
	const {data, problem, loading} = useSpend(window, cursor);
	const past = cursor !== undefined;
	const lines = useMemo(
		() =>
			(data?.resources ?? [])
				.map(line => {
					// Live, a pod's $/h is the fleet's now; in the past, every one's is what its bills said then.
					const pod = line.kind === 'pod' && !past ? pods.byId[line.id]?.record : undefined;
					return {...line, perHour: pod ? podCost(pod).now : line.lastClosed};
				})
				.sort((a, b) => b.total - a.total || a.id.localeCompare(b.id)),
		[data, pods, past],
	);
	const keys = useMemo(() => lines.map(line => `${line.kind}:${line.id}`), [lines]);
	useEffect(() => {
		view.dispatch({type: 'spend-keys', keys});
	}, [view, keys]);

	const resourcesPerHour = lines.reduce((sum, line) => sum + (line.perHour ?? 0), 0);
	// A forecast goes on at the $/h of its moment: the account's now, or in the past what the resources' bills said then.
	const perHour = !past && balance !== undefined && balance !== 'not-published' ? balance.spendPerHour : data ? resourcesPerHour : undefined;
	const figures = data ? spendFigures(data.account, data.readAt, perHour) : undefined;
	const buckets = data ? chartBuckets(data.account, window, data.from) : [];
	const style = chartStyle(glyphs, true);
	const stacked = stackedColumns(buckets, plotColumns(width, style));
	const layers: ToneLayer[] = stacked
		.map((layer, group) => ({kind: 'stack' as const, values: layer.top, bottom: layer.bottom, tone: spendGroups[group]!.tone}))
		.reverse();
	const top = Math.max(0, ...buckets.map(bucket => bucket.groups.reduce((sum, value) => sum + value, 0)));
	const windowTotal = buckets.reduce((sum, bucket) => sum + bucket.groups.reduce((part, value) => part + value, 0), 0);
	const legend = spendGroups.flatMap((group, position) => {
		const total = buckets.reduce((sum, bucket) => sum + (bucket.groups[position] ?? 0), 0);
		return total > 0 ? [{text: `${group.label} ${formatPrice(total)}`, tone: group.tone}] : [];
	});
	const plotRows = Math.max(2, Math.min(10, height - figureLines - tableMinLines - 2));
	const chartHeight = plotRows + 2;
	const {bucketSize} = spendWindowBuckets[window];
	const rows: Row[] = lines.map(line => ({
		key: `${line.kind}:${line.id}`,
		cells: [kindWords[line.kind], resourceName(line), formatPrice(line.total), line.perHour === undefined ? '–' : formatPrice(line.perHour)],
		...(line.name ? {} : {dim: true}),
	}));
	const {dot} = glyphs;
	const title = `Spend ${dot} ${window} by ${bucketSize}${past ? ` to ${formatMoment(cursor, {seconds: false})}` : ''}${data ? ` ${dot} ${formatPrice(windowTotal)}` : ''}${loading ? ` ${dot} reading the bills…` : ''}${hints ? `  ${hints}` : ''}`;
	const lastWeekDay = data ? new Date(data.readAt - 7 * 86_400_000).toLocaleDateString('en-US', {weekday: 'short', timeZone: 'UTC'}) : '';
	return (
		<Box flexDirection='column' width={width} height={height}>
			<Text bold color={colors.accent} wrap='truncate'>
				{title}
			</Text>
			{problem ? (
				<Text color={colors.warn} wrap='truncate'>
					{problem}
				</Text>
			) : (
				<Text wrap='truncate'>
					{figures
						? `${past ? 'that day' : 'today'} ${formatPrice(figures.today)} ${dot} ${past ? 'the day before' : 'yesterday'} ${formatPrice(figures.yesterday)} ${dot} last ${lastWeekDay} ${formatPrice(figures.lastWeek)} (UTC days)`
						: ' '}
				</Text>
			)}
			<Text wrap='truncate'>
				{figures
					? `month to date ${formatPrice(figures.monthToDate)} ${dot} forecast ${formatPrice(figures.forecast)}${perHour === undefined ? '' : ` at ${formatPrice(perHour)}/h`}`
					: ' '}
			</Text>
			<Chart
				bars
				title='by category'
				legend={legend}
				layers={layers}
				width={width}
				height={plotRows}
				range={data ? {min: 0, max: top > 0 ? top : 1} : undefined}
				labels={{top: gutterDollars(top > 0 ? top : 1), bottom: '$0'}}
				unit='dollars'
				axis={data ? {from: data.from, to: data.to} : ' '}
				empty={problem ?? (loading ? 'reading the bills…' : 'nothing billed in this window')}
			/>
			<Table
				columns={past ? pastColumns : columns}
				rows={rows}
				contentWidths={contentWidths(past ? pastColumns : columns, rows)}
				selected={Math.min(index, Math.max(0, rows.length - 1))}
				height={Math.max(1, height - figureLines - chartHeight)}
				width={width}
				emptyText={loading ? 'reading the bills…' : problem ? 'no bills to list' : 'nothing billed in this window'}
			/>
		</Box>
	);
}

import {Box, Text} from 'ink';
import {useEffect} from 'react';
import {DetailTitle} from '../components/detail-title.js';
import {useKeyHints} from '../components/key-hints.js';
import {usePodtop, useServices, useView} from '../components/services.js';
import {Table} from '../components/table.js';
import {formatDuration, formatMillis} from '../format/duration.js';
import {formatCount, formatPercent, formatRate} from '../format/numbers.js';
import {sanitizeLine} from '../format/sanitize.js';
import type {EndpointRecord} from '../model/endpoint.js';
import {jobColumns} from '../rows/job-rows.js';
import {EndpointCharts, endpointChartLayout} from '../components/endpoint-charts/index.js';
import {useRecorded} from '../components/use-series/index.js';
import {coldStartRuleShort} from '../lib/cold-start.js';
import {probeFigures} from '../store/probe-figures.js';
import type {ProbeSample} from '../store/types.js';
import {windowMs} from '../view-state/view-state.js';
import {diagnose} from '../store/diagnosis.js';
import {useNow} from '../components/use-now.js';
import {goneWorkers} from '../rows/worker-rows.js';
import {EndpointWorkers, endpointWorkersLines, workerRowsShown} from './endpoint-workers.js';

/** The probes over the window, when a probe rule exists: their P95 (total, queue, run), the cold-start share and how many. */
function probeLine(probes: readonly ProbeSample[] | undefined, from: number, to: number, window: string): string {
	const total = probeFigures(probes, from, to);
	if (total.count === 0) {
		return `probes: none in ${window}`;
	}

	const delay = probeFigures(probes, from, to, {measure: 'delay'}).p95Ms;
	const execution = probeFigures(probes, from, to, {measure: 'execution'}).p95Ms;
	const failed = total.count - total.finished;
	return `probes P95 ${formatMillis(total.p95Ms)} (delay ${formatMillis(delay)}, execution ${formatMillis(execution)}) · cold ${formatPercent(total.coldShare)} (${coldStartRuleShort}) · ${total.count} in ${window}${failed > 0 ? `, ${failed} not done` : ''}`;
}

/** The endpoint's workers as pods, counted by desired status: ` · pods 3 RUNNING, 1 EXITED`. */
function workerPods(pods: EndpointRecord['pods']): string {
	if (!pods) {
		return '';
	}

	const counts = new Map<string, number>();
	for (const pod of pods) {
		const status = sanitizeLine(pod?.desiredStatus ?? '?');
		counts.set(status, (counts.get(status) ?? 0) + 1);
	}

	return pods.length === 0 ? ' · no worker pods' : ` · pods ${[...counts].map(([status, count]) => `${count} ${status}`).join(', ')}`;
}

type Props = {
	readonly endpointId: string;
	readonly width: number;
	readonly height: number;
};

/** Lines of the details that are not charts or the jobs table: the title, the record, workers, jobs and rates. */
const textLines = 5;

/** The tracked jobs' title and table: as long as the jobs need, at least 4 lines, at most a third of the pane. */
const jobsLines = (height: number, rows: number) => Math.max(4, Math.min(3 + rows, Math.floor(height / 3)));

/**
One endpoint: its record (pools, scaler, idle timeout, locations), its history as charts over the
view's window (queue, workers by state, jobs finished and failed), and the jobs podtop tracks on it.
*/
export function EndpointDetail({endpointId, width, height}: Props) {
	const {colors, rows: selectors, engine, glyphs} = useServices();
	useEffect(() => {
		engine?.showing('endpoints', [endpointId]);
	}, [engine, endpointId]);
	const endpoint = usePodtop(state => state.endpoints.byId[endpointId]);
	const discount = usePodtop(state => state.serverlessDiscount);
	// Rebuilt on job changes only (`state.jobs` is replaced exactly then), not on every health or pod poll.
	const statusFilter = useView(state => state.jobStatusFilter);
	const jobs = usePodtop(state => selectors.endpointJobs(state, endpointId, statusFilter));
	const selection = useView(state => state.selected.endpoint);
	const jobsFocused = useView(state => state.endpointFocus === 'jobs');
	const window = useView(state => state.windows.endpoint);
	const cursor = useView(state => state.cursor);
	const keys = useKeyHints('endpoint', ['back']);
	const windowKeys = useKeyHints('endpoint', [{ids: ['window.shorter', 'window.longer'], word: 'window'}]);
	const jobKeys = useKeyHints('endpoint', ['job.submit', 'job.test', {ids: ['jobs.status-filter'], word: `status: ${statusFilter}`}, 'job.open']);
	const readOnly = engine?.readOnly ?? false;
	const probing = usePodtop(state => state.probes.configured);
	const probes = usePodtop(state => state.probes.byEndpoint[endpointId]);
	const recorded = useRecorded();
	// The diagnosis reads the workers, the rollout and the GPU types beside the endpoint; how long things lasted is told every few seconds.
	const workerList = usePodtop(state => state.workers.byEndpoint[endpointId]);
	const rollout = usePodtop(state => state.workers.rollouts[endpointId]);
	const gpus = usePodtop(state => state.gpus);
	// Uptimes and how long jobs waited move on between reads: told every few seconds while there are any (an idle screen stays still).
	const now = useNow(workerList !== undefined || (endpoint?.health?.jobs.inQueue ?? 0) > 0, 5000);
	if (!endpoint) {
		return <Text color={colors.warn}>{`Endpoint ${endpointId} is not in the list (any more).`}</Text>;
	}

	const {record, health, figures} = endpoint;
	const diagnosis = diagnose({
		endpoint: record,
		health,
		history: endpoint.history,
		workers: workerList,
		rollout,
		gpus: gpus.order.map(id => gpus.byId[id]!.record),
		now: cursor ?? now,
	});
	// The workers' rows take what the charts and the jobs' four lines leave, one to four.
	const fixedLines = textLines + (probing ? 1 : 0) + 4;
	const rowsShown = Math.max(1, Math.min(workerRowsShown, height - fixedLines - endpointWorkersLines(diagnosis, 0, 0)));
	const workersHeight = endpointWorkersLines(diagnosis, workerList?.list.workers.length, rowsShown, workerList ? goneWorkers(workerList).length : 0);
	const facts = [
		`pools ${record.gpuIds ?? '–'} ×${record.gpuCount ?? 1}`,
		`scaler ${record.scalerType ?? '–'} ${record.scalerValue ?? ''}`,
		`idle timeout ${formatDuration(record.idleTimeout)}`,
		`workers ${record.workersMin ?? '–'}–${record.workersMax ?? '–'}`,
		`locations ${record.locations || 'any'}`,
		record.flashBootType === 'FLASHBOOT' ? 'FlashBoot' : record.flashBootType === 'PRIORITY_FLASHBOOT' ? 'FlashBoot with priority capacity' : undefined,
		record.networkVolumeId ? `volume ${record.networkVolumeId}` : undefined,
	]
		.filter(Boolean)
		.join(' · ');
	const workers = `${
		health
			? `workers: running ${health.workers.running} · idle ${health.workers.idle} · initializing ${health.workers.initializing} · throttled ${health.workers.throttled} · unhealthy ${health.workers.unhealthy}`
			: 'workers: –'
	}${workerPods(record.pods)}`;
	const jobsLine = health
		? `jobs: queue ${health.jobs.inQueue} · in progress ${health.jobs.inProgress} · completed ${formatCount(health.jobs.completed)} · failed ${formatCount(health.jobs.failed)} · retried ${formatCount(health.jobs.retried)}`
		: 'jobs: –';
	const rates = `rate ${formatRate(figures.throughputPerMinute)} · failures ${formatPercent(figures.failureRate)} · retries ${formatPercent(figures.retryRate)} · drain ${figures.drainEtaSeconds === undefined ? '–' : formatDuration(figures.drainEtaSeconds)}${
		discount?.discountFactor
			? ` · discount ×${discount.discountFactor} (${sanitizeLine(discount.type ?? '?')}${discount.expirationDate ? `, until ${sanitizeLine(discount.expirationDate.slice(0, 10))}` : ''})`
			: ''
	}`;
	// Live, the window ends at the newest probe; at the time cursor, there.
	const probesTo = cursor ?? probes?.at(-1)?.at ?? 0;
	const probeText = probing ? probeLine(probes, probesTo - windowMs[window], probesTo, window) : undefined;
	const texts = textLines + (probeText === undefined ? 0 : 1) + workersHeight;
	const chartsHeight = Math.max(0, height - texts - jobsLines(height, jobs.rows.length));
	const found = selection.key === undefined ? -1 : jobs.rows.findIndex(row => row.key === selection.key);
	const selected = jobsFocused ? (found === -1 ? Math.min(selection.index, Math.max(0, jobs.rows.length - 1)) : found) : -1;
	return (
		<Box flexDirection='column' width={width} height={height}>
			<DetailTitle
				text={`${sanitizeLine(record.name)} (${sanitizeLine(record.id)})  ${keys} ${glyphs.dot} ${window}${recorded ? '' : ' (history off: the last 10m in memory)'} ${windowKeys}`}
				source='jobApi'
			/>
			<Text wrap='truncate'>{sanitizeLine(facts)}</Text>
			<Text wrap='truncate'>{workers}</Text>
			<Text wrap='truncate'>{jobsLine}</Text>
			<Text wrap='truncate'>{rates}</Text>
			{probeText === undefined ? undefined : <Text wrap='truncate'>{probeText}</Text>}
			<EndpointWorkers endpointId={endpointId} diagnosis={diagnosis} width={width} now={cursor ?? now} rowsShown={rowsShown} />
			<EndpointCharts endpointId={endpointId} width={width} height={chartsHeight} />
			<Text bold color={colors.accent} wrap='truncate'>
				{`Tracked jobs (${statusFilter === 'all' ? jobs.tracked : `${jobs.rows.length} of ${jobs.tracked} ${statusFilter}`})  ${jobKeys}`}
			</Text>
			<Table
				columns={jobColumns}
				rows={jobs.rows}
				contentWidths={jobs.widths}
				selected={selected}
				height={Math.max(2, height - texts - endpointChartLayout(width, chartsHeight).lines - 1)}
				width={width}
				emptyText={
					jobs.tracked > 0
						? `no ${statusFilter} jobs: f shows another status`
						: `none yet: ${readOnly ? '' : 'n sends a job, t a test job, '}:job <endpoint> <id> adds one`
				}
			/>
		</Box>
	);
}

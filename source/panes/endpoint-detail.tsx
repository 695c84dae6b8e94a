import {Box, Text} from 'ink';
import {useMemo, type MutableRefObject} from 'react';
import {Table} from '../components/table.js';
import {DataAge} from '../components/data-age.js';
import {formatDuration, formatMillis} from '../format/duration.js';
import {sparkline} from '../format/glyphs.js';
import {formatCount, formatPercent, formatRate} from '../format/numbers.js';
import {sanitizeLine} from '../format/sanitize.js';
import {usePodtop, useServices} from '../ui/app-context.js';

type Props = {
	readonly endpointId: string;
	readonly width: number;
	readonly height: number;
	readonly selected: number;
	readonly rowKeys: MutableRefObject<readonly string[]>;
};

/** One endpoint: its record (pools, scaler, idle timeout, locations), health history, and the jobs podtop tracks on it. */
export function EndpointDetail({endpointId, width, height, selected, rowKeys}: Props) {
	const {colors, glyphs} = useServices();
	const endpoint = usePodtop(state => state.endpoints.byId[endpointId]);
	// The job map is written in place; `state.jobs` is replaced exactly when a job changes, so the
	// list is rebuilt on job changes only, not on every health or pod poll.
	const trackedJobs = usePodtop(state => state.jobs);
	const jobs = useMemo(() => [...trackedJobs.byKey.values()].filter(job => job.endpointId === endpointId), [trackedJobs, endpointId]);
	rowKeys.current = jobs.map(job => job.key);
	if (!endpoint) {
		return <Text color={colors.warn}>{`Endpoint ${endpointId} is not in the list (any more).`}</Text>;
	}

	const {record, health, history, figures} = endpoint;
	const line = (label: string, values: readonly number[]) => `${label.padEnd(9)}${sparkline(values, Math.min(60, width - 20), glyphs)}  now ${values.at(-1) ?? '–'}`;
	const facts = [
		`pools ${record.gpuIds ?? '–'} ×${record.gpuCount ?? 1}`,
		`scaler ${record.scalerType ?? '–'} ${record.scalerValue ?? ''}`,
		`idle timeout ${formatDuration(record.idleTimeout)}`,
		`workers ${record.workersMin ?? '–'}–${record.workersMax ?? '–'}`,
		`locations ${record.locations || 'any'}`,
		record.flashBootType === 'FLASHBOOT' ? 'FlashBoot' : undefined,
		record.networkVolumeId ? `volume ${record.networkVolumeId}` : undefined,
	].filter(Boolean).join(' · ');
	const workers = health ? `workers: running ${health.workers.running} · idle ${health.workers.idle} · initializing ${health.workers.initializing} · throttled ${health.workers.throttled} · unhealthy ${health.workers.unhealthy}` : 'workers: –';
	const jobsLine = health ? `jobs: queue ${health.jobs.inQueue} · in progress ${health.jobs.inProgress} · completed ${formatCount(health.jobs.completed)} · failed ${formatCount(health.jobs.failed)} · retried ${formatCount(health.jobs.retried)}` : 'jobs: –';
	const rates = `rate ${formatRate(figures.throughputPerMinute)} · failures ${formatPercent(figures.failureRate)} · retries ${formatPercent(figures.retryRate)} · drain ${figures.drainEtaSeconds === undefined ? '–' : formatDuration(figures.drainEtaSeconds)}`;
	const fixedLines = 9;
	const rows = jobs.map(job => ({
		key: job.key,
		cells: [job.id, job.status, formatMillis(job.delayTime), formatMillis(job.executionTime), String(job.chunkCount), sanitizeLine(job.error ?? job.lastError ?? '')],
		tone: job.status === 'FAILED' || job.status === 'TIMED_OUT' ? 'bad' as const : (job.status === 'COMPLETED' ? 'good' as const : undefined),
	}));
	return (
		<Box flexDirection="column" width={width} height={height}>
			<Box>
				<Box flexGrow={1}><Text bold color={colors.accent} wrap="truncate">{`${sanitizeLine(record.name)} (${record.id})  Esc back`}</Text></Box>
				<DataAge source="jobApi" width={30}/>
			</Box>
			<Text wrap="truncate">{sanitizeLine(facts)}</Text>
			<Text wrap="truncate">{workers}</Text>
			<Text wrap="truncate">{jobsLine}</Text>
			<Text wrap="truncate">{line('queue', history.map(sample => sample.inQueue))}</Text>
			<Text wrap="truncate">{line('running', history.map(sample => sample.running))}</Text>
			<Text wrap="truncate">{rates}</Text>
			<Text bold color={colors.accent}>{`Tracked jobs (${jobs.length})  t send a test job · ⏎ open`}</Text>
			<Table
				columns={[{title: 'JOB', width: 20, flex: true}, {title: 'STATUS', width: 11}, {title: 'DELAY', width: 7, align: 'right'}, {title: 'EXEC', width: 7, align: 'right'}, {title: 'CHUNKS', width: 6, align: 'right'}, {title: 'ERROR', width: 20}]}
				rows={rows}
				selected={Math.min(selected, Math.max(0, rows.length - 1))}
				height={Math.max(2, height - fixedLines + 1)}
				width={width}
				emptyText="none yet: press t to send a test job, or :job <endpoint> <id>"
			/>
		</Box>
	);
}

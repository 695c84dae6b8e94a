import {Box, Text} from 'ink';
import {usePodtop, useServices, useView} from '../components/services.js';
import {formatMillis} from '../format/duration.js';
import {sanitizeLine} from '../format/sanitize.js';
import {imageKey} from '../images/find-image.js';
import {jobEnding} from '../rows/job-rows.js';
import {jobKey} from '../store/job-key.js';
import type {TrackedJob} from '../store/types.js';
import {JobPicture} from './job-picture.js';

type Props = {
	readonly endpointId: string;
	readonly jobId: string;
	readonly width: number;
	readonly height: number;
};

const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

function metricsLine(job: TrackedJob): string {
	const metrics = job.metrics ?? {};
	const throughput = number(metrics.avg_gen_throughput);
	const kvCache = number(metrics.gpu_kv_cache_usage);
	const input = number(metrics.input_tokens);
	const output = number(metrics.output_tokens);
	return [
		`throughput ${throughput === undefined ? '–' : `${throughput.toFixed(1)} tok/s`}`,
		`KV cache ${kvCache === undefined ? '–' : `${Math.round(kvCache * 100)}%`}`,
		`tokens ${input ?? '–'} in / ${output ?? '–'} out`,
		`chunks ${job.chunkCount}`,
	].join(' · ');
}

/** The title's right end: following, ended (and how), or paused with the lines below counted. */
function followLabel(paused: boolean, below: number, ending: string | undefined, down: string): string {
	const noun = below === 1 ? 'line' : 'lines';
	if (ending === undefined) {
		return paused ? `${down} ${below} unseen ${noun} · G to follow` : 'following';
	}

	return paused ? `${down} ${below} ${noun} below · G to the end` : `ended: ${ending}`;
}

/**
One job's live stream: status, delay and execution time, worker, the latest metrics, and the output
following its tail. Scrolling up pauses: the same lines stay on screen as more arrive below, counted.
An ended job says how it ended instead of following.
*/
export function JobView({endpointId, jobId, width, height}: Props) {
	const {colors, glyphs, rows} = useServices();
	const job = usePodtop(state => state.jobs.byKey.get(jobKey(endpointId, jobId)));
	const pausedAt = useView(state => state.jobEnd);
	// The four fixed lines above: title, status, metrics, rule.
	const body = rows.jobBody(job, width, Math.max(1, height - 4));
	const {lines} = body;
	if (!job) {
		return <Text color={colors.muted}>{`Job ${sanitizeLine(jobId)} on ${sanitizeLine(endpointId)}: starting to follow it…`}</Text>;
	}

	const statusTone =
		job.status === 'COMPLETED' ? colors.good : job.status === 'FAILED' || job.status === 'TIMED_OUT' || job.status === 'CANCELLED' ? colors.bad : colors.warn;
	const bodyHeight = Math.max(1, body.textRows);
	const end = pausedAt === undefined ? lines.length : Math.max(Math.min(bodyHeight, lines.length), Math.min(lines.length, pausedAt));
	const below = lines.length - end;
	const visible = lines.slice(Math.max(0, end - bodyHeight), end);
	const ending = jobEnding(job.status);
	const follow = followLabel(pausedAt !== undefined, below, ending, glyphs.down);
	const empty = ending === undefined ? (job.starting ? 'waiting for the job to start…' : 'waiting for output…') : `${ending} without output`;
	return (
		<Box flexDirection='column' width={width} height={height}>
			{/* One row, however long the id: a title that wrapped would push the picture and text down a row. */}
			<Box height={1}>
				<Box flexGrow={1}>
					<Text
						bold
						color={colors.accent}
						wrap='truncate'
					>{`${job.via === 'compat' ? 'Chat over /compat' : 'Job'} ${sanitizeLine(job.id)} on ${sanitizeLine(job.endpointId)}  Esc back`}</Text>
				</Box>
				<Box flexShrink={0}>
					<Text color={pausedAt === undefined ? (ending === undefined ? colors.muted : statusTone) : colors.warn}>{follow}</Text>
				</Box>
			</Box>
			<Text wrap='truncate'>
				<Text bold color={statusTone}>
					{sanitizeLine(job.status)}
				</Text>
				{` · delay ${formatMillis(job.delayTime)} · execution ${formatMillis(job.executionTime)} · worker ${sanitizeLine(job.workerId ?? '–')}${job.lastError ? ` · ${glyphs.warning} ${sanitizeLine(job.lastError)}` : ''}${job.starting ? ' · waiting for the job to start' : ''}`}
			</Text>
			<Text dimColor wrap='truncate'>
				{metricsLine(job)}
			</Text>
			<Text dimColor>{glyphs.rule.repeat(Math.max(0, width))}</Text>
			{body.image ? <JobPicture key={imageKey(body.image)} source={body.image} width={width} rows={body.imageRows} /> : undefined}
			{body.textRows > 0 ? (
				<Box flexDirection='column' height={bodyHeight}>
					{visible.length === 0 ? <Text dimColor>{empty}</Text> : visible.map((line, index) => <Text key={`${end}-${index}`}>{line || ' '}</Text>)}
				</Box>
			) : undefined}
		</Box>
	);
}

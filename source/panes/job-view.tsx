import {Box, Text} from 'ink';
import {formatMillis} from '../format/duration.js';
import {wrapLines} from '../format/fit.js';
import {sanitizeLine, sanitizeText} from '../format/sanitize.js';
import {usePodtop, useServices} from '../ui/app-context.js';
import type {TrackedJob} from '../store/types.js';

type Props = {
	readonly jobKey: string;
	readonly width: number;
	readonly height: number;
	/** Lines scrolled up from the tail; 0 follows the tail. */
	readonly scrollBack: number;
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

/** The output as wrapped, sanitised lines: streamed text, else the final output or error. */
export function jobLines(job: TrackedJob, width: number): string[] {
	let text = job.text;
	if (!text && job.output !== undefined) {
		text = typeof job.output === 'string' ? job.output : JSON.stringify(job.output, undefined, 2);
	}

	if (job.error) {
		text = `${text}${text ? '\n' : ''}error: ${job.error}`;
	}

	return text ? wrapLines(sanitizeText(text), Math.max(10, width)) : [];
}

/**
One job's live stream: status, delay and execution time, worker, the latest metrics, and the output
following its tail. Scrolling up pauses the follow and says how many lines are unseen below.
*/
export function JobView({jobKey, width, height, scrollBack}: Props) {
	const {colors, glyphs} = useServices();
	const job = usePodtop(state => state.jobs.byKey.get(jobKey));
	if (!job) {
		return <Text color={colors.warn}>{`Job ${jobKey} is not tracked.`}</Text>;
	}

	const statusTone = job.status === 'COMPLETED' ? colors.good : (job.status === 'FAILED' || job.status === 'TIMED_OUT' || job.status === 'CANCELLED' ? colors.bad : colors.warn);
	const lines = jobLines(job, width);
	const bodyHeight = Math.max(1, height - 4);
	const back = Math.min(scrollBack, Math.max(0, lines.length - bodyHeight));
	const end = lines.length - back;
	const visible = lines.slice(Math.max(0, end - bodyHeight), end);
	const follow = back === 0 ? 'following' : `${glyphs.down} ${back} unseen line${back === 1 ? '' : 's'} · G to follow`;
	return (
		<Box flexDirection="column" width={width} height={height}>
			<Box>
				<Box flexGrow={1}><Text bold color={colors.accent} wrap="truncate">{`Job ${job.id} on ${job.endpointId}  Esc back`}</Text></Box>
				<Text color={back === 0 ? colors.muted : colors.warn}>{follow}</Text>
			</Box>
			<Text wrap="truncate">
				<Text color={statusTone} bold>{job.status}</Text>
				{` · delay ${formatMillis(job.delayTime)} · execution ${formatMillis(job.executionTime)} · worker ${job.workerId ?? '–'}${job.lastError ? ` · ${glyphs.warning} ${sanitizeLine(job.lastError)}` : ''}`}
			</Text>
			<Text wrap="truncate" dimColor>{metricsLine(job)}</Text>
			<Text dimColor>{glyphs.rule.repeat(Math.max(0, width))}</Text>
			<Box flexDirection="column" height={bodyHeight}>
				{visible.length === 0 ? <Text dimColor>waiting for output…</Text> : visible.map((line, index) => <Text key={`${end}-${index}`}>{line || ' '}</Text>)}
			</Box>
		</Box>
	);
}
